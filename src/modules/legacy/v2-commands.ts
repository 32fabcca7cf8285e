/**
 * The one table of version 2 commands (spec 9): what replaces each in version 3, or that nothing does.
 * It drives both the 404 answers of the retired v2 endpoints (v2.service.ts) and the generated
 * docs/migrating-from-v2.md (`npm run docs:v2`); a test fails when the committed page differs from it.
 */

/** A version 3 call as the spec writes it: method, then the path under `{base_url}/API`. */
export type V3Call = `${'GET' | 'POST' | 'PUT' | 'DELETE'} /v3/${string}`;

export const V2_AREAS = [
  'Surveys',
  'Responses',
  'Distributions',
  'Panels (mailing lists)',
  'Users',
  'Event subscriptions',
  'Brand, library and other',
] as const;
export type V2Area = (typeof V2_AREAS)[number];

export interface V2Command {
  area: V2Area;
  /** The v3 call that replaces the command; null when it was obsoleted with no v3 equivalent (spec 9.4). */
  replacement: V3Call | null;
  /** What to send instead or where the data now is; empty when there is nothing to add. */
  note: string;
  /**
   * The spec's own words for the call where it describes it instead of naming it (9.5, 4.4, 4.6): the
   * spec-walk test (test/legacy) reads the spec and fails when one of its descriptions has no command here.
   */
  specTerms?: readonly string[];
  /** The spec describes the call without naming it: the name is our reading of v2 clients, `(?)` in the docs. */
  nameUncertain?: true;
}

const SURVEY = 'PUT /v3/surveys/<surveyId>';
const GET_SURVEY = 'GET /v3/surveys/<surveyId>';
const SEND = 'POST /v3/distributions/<distributionId>';
const GET_USER = 'GET /v3/users/<userId>';
const LIST_CONTACT = '/v3/mailinglists/<mailingListId>/contacts/<contactId>';
const DIRECTORY_CONTACTS = 'GET /v3/directories/<directoryId>/mailinglists/<mailingListId>/contacts';
const SENDS_MERGED =
  'The sends of a distribution are one call in version 3; the distribution itself is made with POST /v3/distributions.';

export const V2_COMMANDS = {
  // Spec 9.5: activation, deactivation, option and owner changes are all one PUT.
  activateSurvey: {
    area: 'Surveys',
    replacement: SURVEY,
    note: 'Send `{"isActive": true}`.',
    specTerms: ['survey activation'],
  },
  deactivateSurvey: {
    area: 'Surveys',
    replacement: SURVEY,
    note: 'Send `{"isActive": false}`.',
    specTerms: ['deactivation'],
  },
  updateSurveyOptions: {
    area: 'Surveys',
    replacement: SURVEY,
    note: 'Send the options to change: `{"name", "expiration": {"startDate", "endDate"}}`.',
    specTerms: ['option'],
    nameUncertain: true,
  },
  changeSurveyOwner: {
    area: 'Surveys',
    replacement: SURVEY,
    note: 'Send `{"ownerId": "UR_..."}`.',
    specTerms: ['owner changes'],
    nameUncertain: true,
  },
  // Spec 9.5: response counts by survey, survey name and survey retrieval are all one GET.
  getSurvey: {
    area: 'Surveys',
    replacement: GET_SURVEY,
    note: 'The survey structure (questions, blocks, flow) comes as JSON in `result`, not as XML.',
    specTerms: ['survey retrieval'],
  },
  getSurveyName: {
    area: 'Surveys',
    replacement: GET_SURVEY,
    note: 'The name is `result.name`.',
    specTerms: ['survey name'],
  },
  getResponseCountsBySurvey: {
    area: 'Surveys',
    replacement: GET_SURVEY,
    note: 'The counts are `result.responseCounts`: auditable, generated, deleted.',
    specTerms: ['response counts by survey'],
  },
  getSurveys: {
    area: 'Surveys',
    replacement: 'GET /v3/surveys',
    note: 'The surveys come as `result.elements`, paged through `result.nextPage`.',
  },
  importSurvey: {
    area: 'Surveys',
    replacement: 'POST /v3/surveys',
    note: 'Upload the QSF file as multipart `file`, with a `name`.',
  },
  deleteSurvey: { area: 'Surveys', replacement: 'DELETE /v3/surveys/<surveyId>', note: '' },

  // Spec 9.5: the legacy response data call is replaced by the three-step export (spec 4.5).
  getLegacyResponseData: {
    area: 'Responses',
    replacement: 'POST /v3/responseexports',
    note: 'The first of three steps: then poll GET /v3/responseexports/<exportId> until its `status` is complete, then download GET /v3/responseexports/<exportId>/file (a zip of csv, csv2013, xml, json or spss).',
    specTerms: ['legacy response data call'],
  },
  getSingleResponseHTML: {
    area: 'Responses',
    replacement: 'GET /v3/surveys/<surveyId>/responses/<responseId>',
    note: 'One response as JSON (`values`, `labels`); version 3 renders no HTML.',
  },
  importResponses: {
    area: 'Responses',
    replacement: 'POST /v3/responseimports',
    note: "Upload a file in the survey's csv or tsv export layout.",
  },
  updateResponseEmbeddedData: {
    area: 'Responses',
    replacement: 'PUT /v3/responses/<responseId>',
    note: 'Send `{"surveyId", "embeddedData": {...}}`.',
  },
  // Spec 9.4 lists it as obsoleted; spec 4.4 says the get-user call replaces it: both are said.
  getResponseCountsBySurveyOwner: {
    area: 'Responses',
    replacement: null,
    note: "A user's own response counts are `responseCounts` of GET /v3/users/<userId>.",
    specTerms: ['response counts by survey owner'],
  },

  // Spec 9.5: the distribution sends are all one POST; spec 4.6 names them.
  sendSurveyToPanel: {
    area: 'Distributions',
    replacement: SEND,
    note: SENDS_MERGED,
    specTerms: ['distribution sends', 'email to panel'],
  },
  sendSurveyToIndividual: {
    area: 'Distributions',
    replacement: SEND,
    note: `${SENDS_MERGED} Recipients \`{"mailingListId", "contactId"}\` address one contact.`,
    specTerms: ['distribution sends', 'send survey'],
  },
  sendReminder: {
    area: 'Distributions',
    replacement: SEND,
    note: `${SENDS_MERGED} The path names the parent distribution (v2 ParentEmailDistributionID).`,
    specTerms: ['distribution sends', 'reminder'],
  },
  sendThankYou: {
    area: 'Distributions',
    replacement: SEND,
    note: `${SENDS_MERGED} The path names the parent distribution.`,
    specTerms: ['distribution sends', 'thank you'],
    nameUncertain: true,
  },
  createDistribution: {
    area: 'Distributions',
    replacement: 'POST /v3/distributions',
    note: 'Send `{message, recipients, header, surveyLink}`.',
  },
  getDistributions: {
    area: 'Distributions',
    replacement: 'GET /v3/distributions',
    note: 'Each distribution carries its `stats`.',
  },

  // A panel (v2) is a mailing list (spec 1.6).
  getPanels: { area: 'Panels (mailing lists)', replacement: 'GET /v3/mailinglists', note: '' },
  createPanel: { area: 'Panels (mailing lists)', replacement: 'POST /v3/mailinglists', note: '' },
  getPanel: {
    area: 'Panels (mailing lists)',
    replacement: DIRECTORY_CONTACTS,
    note: 'The panel members are the contacts of the mailing list, paged; `unsubscribed` marks opt-outs.',
  },
  deletePanel: {
    area: 'Panels (mailing lists)',
    replacement: 'DELETE /v3/mailinglists/<mailingListId>',
    note: '',
  },
  getPanelMemberCount: {
    area: 'Panels (mailing lists)',
    replacement: null,
    note: 'Each list of GET /v3/directories/<directoryId>/mailinglists carries its `contactCount`.',
  },
  addRecipient: {
    area: 'Panels (mailing lists)',
    replacement: 'POST /v3/mailinglists/<mailingListId>/contacts',
    note: 'Embedded data goes in `embeddedData`, an object of strings.',
  },
  getRecipient: { area: 'Panels (mailing lists)', replacement: `GET ${LIST_CONTACT}`, note: '' },
  updateRecipient: { area: 'Panels (mailing lists)', replacement: `PUT ${LIST_CONTACT}`, note: '' },
  removeRecipient: { area: 'Panels (mailing lists)', replacement: `DELETE ${LIST_CONTACT}`, note: '' },
  importPanel: {
    area: 'Panels (mailing lists)',
    replacement: 'POST /v3/mailinglists/<mailingListId>/contactimports',
    note: 'Send JSON `{"contacts": [...]}` or a CSV or JSON file, then poll the import it answers with.',
  },
  // Spec 9.4: not implemented in an earlier mapping, replaced later by optedOutContacts; spec 9.5: `unsubscribed`.
  getPanelOptouts: {
    area: 'Panels (mailing lists)',
    replacement: 'GET /v3/directories/<directoryId>/mailinglists/<mailingListId>/optedOutContacts',
    note: `Each contact of ${DIRECTORY_CONTACTS} also carries \`unsubscribed\`.`,
    specTerms: ['list opt-outs'],
  },

  // Spec 4.4: the get-user call replaces user info and password expiration dates.
  getUserInfo: {
    area: 'Users',
    replacement: GET_USER,
    note: "GET /v3/whoami names the caller's own user id.",
    specTerms: ['user info'],
  },
  getUserPasswordExpirationDate: {
    area: 'Users',
    replacement: GET_USER,
    note: 'Read `passwordExpirationDate` of the user record.',
    specTerms: ['password expiration dates'],
    nameUncertain: true,
  },
  userPermissionType: { area: 'Users', replacement: null, note: '' },

  subscribe: {
    area: 'Event subscriptions',
    replacement: 'POST /v3/eventsubscriptions',
    note: 'Send `{"topics", "publicationUrl", "encrypt", "sharedKey"}`.',
  },
  getAllSubscriptions: {
    area: 'Event subscriptions',
    replacement: 'GET /v3/eventsubscriptions',
    note: 'Only administrators of the organization may list them.',
  },

  // Spec 9.4: obsoleted, no version 3 equivalent.
  activateBrand: { area: 'Brand, library and other', replacement: null, note: '' },
  deactivateBrand: { area: 'Brand, library and other', replacement: null, note: '' },
  getQualtricsIdsForLibrary: { area: 'Brand, library and other', replacement: null, note: '' },
  updatePredefinedDataSource: { area: 'Brand, library and other', replacement: null, note: '' },
  getIncentiveRecipients: { area: 'Brand, library and other', replacement: null, note: '' },
  importSurveyTranslations: { area: 'Brand, library and other', replacement: null, note: '' },
} as const satisfies Record<string, V2Command>;

export type V2CommandName = keyof typeof V2_COMMANDS;

/** Every command with its name, in table order. */
export function listV2Commands(): (V2Command & { name: V2CommandName })[] {
  return (Object.entries(V2_COMMANDS) as [V2CommandName, V2Command][]).map(([name, command]) => ({
    ...command,
    name,
  }));
}
