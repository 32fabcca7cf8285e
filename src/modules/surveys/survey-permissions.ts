/**
 * The named permissions a survey is shared with (`POST /v3/surveys/{id}/permissions/collaborations`), in
 * the real service's four groups. A collaborator sees the survey (read it, its definition, quotas and
 * versions, take it through sessions) whatever flags it has; each other action needs its flag
 * (docs/surveys.md "Sharing a survey" has the table of routes and flags).
 */
export const PERMISSION_GROUPS = {
  surveyDefinitionManipulation: [
    'copySurveyQuestions',
    'editSurveyFlow',
    'useBlocks',
    'useSkipLogic',
    'useConjoint',
    'useTriggers',
    'useQuotas',
    'setSurveyOptions',
    'editQuestions',
    'deleteSurveyQuestions',
    'useTableOfContents',
    'useAdvancedQuotas',
  ],
  surveyManagement: [
    'editSurveys',
    'activateSurveys',
    'deactivateSurveys',
    'copySurveys',
    'distributeSurveys',
    'deleteSurveys',
    'translateSurveys',
  ],
  response: ['editSurveyResponses', 'createResponseSets', 'viewResponseId', 'useCrossTabs', 'useScreenouts'],
  result: ['downloadSurveyResults', 'viewSurveyResults', 'filterSurveyResults', 'viewPersonalData'],
} as const;

type Groups = typeof PERMISSION_GROUPS;
export type PermissionGroup = keyof Groups;
/** `surveyManagement.editSurveys`: one named permission. */
export type SurveyPermission = { [G in PermissionGroup]: `${G}.${Groups[G][number]}` }[PermissionGroup];

/** What an action on a survey needs: to see it (any collaboration), or one named permission. */
export type SurveyNeed = 'see' | SurveyPermission;

/** The granted permissions as stored and answered: every group, every flag true or false. */
export type PermissionSet = { [G in PermissionGroup]: Record<Groups[G][number], boolean> };

function emptySet(): PermissionSet {
  return Object.fromEntries(
    Object.entries(PERMISSION_GROUPS).map(([group, flags]) => [
      group,
      Object.fromEntries(flags.map((flag) => [flag, false])),
    ]),
  ) as PermissionSet;
}

/** A group of flags as the share route's schema lets it through. */
type GivenGroups = Record<string, Record<string, boolean | undefined> | undefined>;

/**
 * Reads the `permissions` of a share request: the four groups of boolean flags, or the same wrapped in
 * `SurveyPermissions` (as some clients send it). A flag not given is not granted. Flags and groups this
 * service does not know are ignored and named in `ignored` (the answer's notice).
 */
export function readPermissions(given: object): { permissions: PermissionSet; ignored: string[] } {
  const wrapped = (given as { SurveyPermissions?: object }).SurveyPermissions;
  const groups = (wrapped ?? given) as GivenGroups;
  const permissions = emptySet();
  const ignored: string[] = [];
  for (const [group, flags] of Object.entries(groups)) {
    const known = PERMISSION_GROUPS[group as PermissionGroup] as readonly string[] | undefined;
    if (!known || flags === undefined) {
      ignored.push(`permissions.${group}`);
      continue;
    }
    for (const [flag, value] of Object.entries(flags)) {
      if (known.includes(flag))
        (permissions[group as PermissionGroup] as Record<string, boolean>)[flag] = value === true;
      else ignored.push(`permissions.${group}.${flag}`);
    }
  }
  return { permissions, ignored };
}

/** The flags granted by any of several shares (a user's own and their groups'). */
export function unionOf(sets: readonly PermissionSet[]): PermissionSet {
  const out = emptySet();
  for (const set of sets) {
    for (const group of Object.keys(out) as PermissionGroup[]) {
      const into = out[group] as Record<string, boolean>;
      for (const [flag, value] of Object.entries(set[group] ?? {}))
        if (value === true && flag in into) into[flag] = true;
    }
  }
  return out;
}

/**
 * What a caller may do with a survey, as `requireSurveyAccess` found it: everything (its owner, a brand
 * administrator) or what the caller's shares grant.
 */
export type SurveyAccess = 'all' | PermissionSet;

export function grants(access: SurveyAccess, need: SurveyNeed): boolean {
  if (access === 'all' || need === 'see') return true;
  const [group, flag] = need.split('.') as [PermissionGroup, string];
  return (access[group] as Record<string, boolean>)[flag] === true;
}

/**
 * What `result.viewPersonalData` guards: the respondent's address, location and contact details. A
 * collaborator without it reads responses and exports without these values and columns.
 */
export const PERSONAL_DATA_KEYS: readonly string[] = [
  'ipAddress',
  'locationLatitude',
  'locationLongitude',
  'recipientEmail',
  'recipientFirstName',
  'recipientLastName',
  'externalDataReference',
];

/** A response's values (or labels) without the personal-data keys. */
export function withoutPersonalData<T>(values: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => !PERSONAL_DATA_KEYS.includes(key)));
}
