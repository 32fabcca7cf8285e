// The kinds of seeded ids, and which kind each path parameter of the document takes.

/** What a path parameter or a body field refers to; each kind has the seeded ids of an organisation. */
export const ID_KINDS = [
  'organization',
  'user',
  'division',
  'group',
  'subscription',
  'delivery',
  'directory',
  'directoryContact',
  'directoryList',
  'listContact',
  'legacyList',
  'legacyMember',
  'sample',
  'contactImport',
  'legacyImport',
  'survey',
  'response',
  'legacyExport',
  'exportProgress',
  'exportFile',
  'responseImport',
  'responseUpdate',
  'library',
  'message',
  'graphic',
  'oauthClient',
  'distribution',
  'question',
  'block',
  'flow',
  'version',
  'threeSixty',
  'subject',
  'evaluator',
  'session',
  'recipient',
  'uploadedFile',
] as const;

export type IdKind = (typeof ID_KINDS)[number];

/** The kind of id a path parameter takes: by its name, and where a name serves two kinds, by the path. */
export function kindOfParam(path: string, name: string): IdKind {
  const legacy = path.startsWith('/API/v3/mailinglists');
  switch (name) {
    case 'organizationId':
      return 'organization';
    case 'eventSubscriptionId':
      return 'subscription';
    case 'contactId':
      if (legacy) return 'legacyMember';
      return path.includes('{mailingListId}') ? 'listContact' : 'directoryContact';
    case 'mailingListId':
      return legacy ? 'legacyList' : 'directoryList';
    case 'importId':
      if (path.includes('responseimports')) return 'responseImport';
      return legacy ? 'legacyImport' : 'contactImport';
    case 'exportId':
      return 'legacyExport';
    case 'progressId':
      if (path.includes('update-responses')) return 'responseUpdate';
      return path.includes('import-responses') ? 'responseImport' : 'exportProgress';
    case 'fileId':
      return path.includes('uploaded-files') ? 'uploadedFile' : 'exportFile';
    case 'clientId':
      return 'oauthClient';
    default:
      return name.replace(/Id$/, '') as IdKind;
  }
}
