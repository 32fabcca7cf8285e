/**
 * Survey definitions as code (issue 15): the v3 survey-definitions calls. Every change goes to the
 * survey's working definition through the surveys module (changeWorkingDefinition: one transaction, read
 * again as an imported file is, same refusals and notices) and reaches respondents only when a version is
 * published. The name, activation and dates are the survey's own, changed at once as `PUT /v3/surveys` does.
 */
import { isoSeconds } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { checkQsfShape } from '../surveys/qsf-limits.js';
import type { SurveyPermission } from '../surveys/survey-permissions.js';
import {
  changeWorkingDefinition,
  getSurveyVersion,
  listSurveyVersions,
  publishSurveyVersion,
  readWorkingDefinition,
} from '../surveys/survey-versions.service.js';
import { importSurveyFile, updateSurvey } from '../surveys/surveys.service.js';
import { presentVersion, qsfDate } from './definition.presenter.js';

export { readWorkingDefinition };

/** `POST /v3/survey-definitions`: an empty survey with its default block, not active. */
export async function createSurveyDefinition(
  deps: Deps,
  principal: Principal,
  body: { SurveyName: string; Language?: string | undefined },
): Promise<{ SurveyID: string; DefaultBlockID: string }> {
  const blockId = newId('BL');
  const language = (body.Language ?? 'EN').toUpperCase();
  const document = emptyDefinition(body.SurveyName, language, blockId, principal, deps.clock.now());
  const { id } = await importSurveyFile(deps, principal, document, { name: body.SurveyName });
  return { SurveyID: id, DefaultBlockID: blockId };
}

const NEVER = '0000-00-00 00:00:00';

function emptyDefinition(name: string, language: string, blockId: string, principal: Principal, now: Date) {
  const element = (kind: string, primary: string, payload: unknown) => ({
    SurveyID: 'SV_new',
    Element: kind,
    PrimaryAttribute: primary,
    SecondaryAttribute: null,
    TertiaryAttribute: null,
    Payload: payload,
  });
  const created = qsfDate(now.toISOString());
  return {
    SurveyEntry: {
      SurveyID: 'SV_new',
      SurveyName: name,
      SurveyDescription: null,
      SurveyOwnerID: principal.userId,
      SurveyBrandID: principal.organizationId,
      DivisionID: null,
      SurveyLanguage: language,
      SurveyActiveResponseSet: null,
      SurveyStatus: 'Inactive',
      SurveyStartDate: NEVER,
      SurveyExpirationDate: NEVER,
      SurveyCreationDate: created,
      CreatorID: principal.userId,
      LastModified: created,
      LastAccessed: NEVER,
      LastActivated: NEVER,
      Deleted: null,
    },
    SurveyElements: [
      element('BL', 'Survey Blocks', [
        { Type: 'Default', Description: 'Default Question Block', ID: blockId, BlockElements: [] },
      ]),
      element('FL', 'Survey Flow', {
        Type: 'Root',
        FlowID: 'FL_1',
        Flow: [{ Type: 'Block', ID: blockId, FlowID: 'FL_2' }],
        Properties: { Count: 2 },
      }),
      element('SO', 'Survey Options', {
        BackButton: 'false',
        SaveAndContinue: 'true',
        SurveyProtection: 'PublicSurvey',
        BallotBoxStuffingPrevention: 'false',
        NoIndex: 'Yes',
        SecureResponseFiles: 'true',
        SurveyExpiration: 'None',
        SurveyTermination: 'DefaultMessage',
        Header: '',
        Footer: '',
        ProgressBarDisplay: 'None',
        PartialData: '+1 week',
        ValidationMessage: '',
        PreviousButton: ' ← ',
        NextButton: ' → ',
        SurveyLanguage: language,
      }),
    ],
  };
}

/**
 * One change of the working definition by `edit` (definition-edits.ts, flow-edits.ts). The body is
 * walked first for what no engine stores and for nesting past the import's limits, before any recursive
 * code reads it.
 */
export function changeDefinition<T>(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  need: SurveyPermission,
  body: unknown,
  edit: (document: QsfDocument) => T,
): Promise<{ result: T; notices: string[] }> {
  checkQsfShape(body, 'body');
  return changeWorkingDefinition(deps, principal, surveyId, need, (document) => edit(document));
}

export interface MetadataUpdate {
  SurveyName?: string | undefined;
  SurveyDescription?: string | null | undefined;
  SurveyStatus?: 'Active' | 'Inactive' | undefined;
  SurveyStartDate?: string | null | undefined;
  SurveyExpirationDate?: string | null | undefined;
}

/**
 * `PUT …/metadata`: name, status and dates change the survey at once (as `PUT /v3/surveys` does:
 * activation events, checks); the description is part of the working definition.
 */
export async function updateMetadata(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  body: MetadataUpdate,
) {
  const startDate = isoDate(body.SurveyStartDate, 'SurveyStartDate');
  const endDate = isoDate(body.SurveyExpirationDate, 'SurveyExpirationDate');
  await updateSurvey(deps, principal, surveyId, {
    name: body.SurveyName,
    isActive: body.SurveyStatus === undefined ? undefined : body.SurveyStatus === 'Active',
    expiration:
      startDate === undefined && endDate === undefined
        ? undefined
        : {
            ...(startDate === undefined ? {} : { startDate }),
            ...(endDate === undefined ? {} : { endDate }),
          },
  });
  if (body.SurveyDescription !== undefined) {
    await changeWorkingDefinition(deps, principal, surveyId, 'surveyManagement.editSurveys', (document) => {
      document.SurveyEntry.SurveyDescription = body.SurveyDescription;
    });
  }
}

/** A metadata date (`YYYY-MM-DD HH:MM:SS` in UTC, or ISO 8601) as ISO; null (or the zero date) clears it. */
function isoDate(value: string | null | undefined, field: string): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === '' || value === NEVER) return null;
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value) ? `${value.replace(' ', 'T')}Z` : value;
  const date = new Date(text);
  if (Number.isNaN(date.getTime()))
    throw ApiError.invalid(field, 'must be YYYY-MM-DD HH:MM:SS (UTC) or ISO 8601');
  return isoSeconds(date);
}

/** The survey's versions, each marked whether it is the live one. */
export async function listVersions(deps: Deps, principal: Principal, surveyId: string) {
  const rows = await listSurveyVersions(deps, principal, surveyId);
  const live = Math.max(-1, ...rows.map((r) => r.engine_version ?? -1));
  return rows.map((row) => presentVersion(row, live));
}

export async function createVersion(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  body: { Description: string; Published?: boolean | undefined },
) {
  const row = await publishSurveyVersion(deps, principal, surveyId, {
    description: body.Description,
    published: body.Published,
  });
  // A published version is the live one from now on; a snapshot is not.
  return presentVersion(row, row.engine_version);
}

export async function getVersion(deps: Deps, principal: Principal, surveyId: string, versionId: string) {
  const found = await getSurveyVersion(deps, principal, surveyId, versionId);
  const metadata = (await listVersions(deps, principal, surveyId)).find((v) => v.versionID === versionId);
  return { ...found, metadata };
}
