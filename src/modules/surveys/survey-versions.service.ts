/**
 * Survey definitions as code (issue 15), the surveys module's half: the working definition that the
 * definitions API changes, and the versions published from it. A survey's live definition
 * (`surveys.definition`, what the engine and exports read) changes only by publishing; each publication
 * moves `surveys.version`, the key the engine compiles under (decision 0012), and is kept in
 * `survey_versions` with the version it moved to, so a session runs the definition it started on.
 */
import { isoSeconds } from '../../clock.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { QsfDocument } from './definition/qsf.js';
import { importQsf } from './qsf-import.js';
import type { SurveyPermission } from './survey-permissions.js';
import * as versions from './survey-versions.store.js';
import { accessibleSurvey, quotaRows, requireSurveyAccess, surveyNotFound } from './surveys.service.js';
import * as store from './surveys.store.js';

export type { SurveyVersionListRow, SurveyVersionRow } from './survey-versions.store.js';
export type SurveyRecord = store.SurveyRow;

export interface WorkingDefinition {
  survey: SurveyRecord;
  /** The normalised QSF document: the draft when there is one, else the published definition. */
  document: QsfDocument;
  /** Whether it has changes not published yet. */
  unpublished: boolean;
}

/** The working definition of a survey the caller may manage (404/403 otherwise). */
export async function readWorkingDefinition(
  db: Queryable,
  principal: Principal,
  surveyId: string,
): Promise<WorkingDefinition> {
  const survey = await accessibleSurvey(db, principal, surveyId, 'see');
  const draft = await versions.findDraft(db, principal, surveyId);
  return {
    survey,
    document: fromJson<QsfDocument>(draft?.definition ?? survey.definition),
    unpublished: draft !== undefined,
  };
}

/**
 * Changes the working definition, in one transaction that holds the survey's row: `change` edits the
 * document it is given (and may refuse with an ApiError), then the whole document is read again as an
 * imported file is (importQsf: the same refusals and the same notices) and kept as the draft. Nothing
 * reaches the engine before `publishSurveyVersion`.
 */
export async function changeWorkingDefinition<T>(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  need: SurveyPermission,
  change: (document: QsfDocument, survey: SurveyRecord) => T,
): Promise<{ result: T; notices: string[] }> {
  const now = isoSeconds(deps.clock.now());
  return deps.db.transaction().execute(async (trx) => {
    const survey = await lockSurvey(trx, principal, surveyId, need, now);
    const draft = await versions.findDraft(trx, principal, surveyId);
    const document = fromJson<QsfDocument>(draft?.definition ?? survey.definition);
    const result = change(document, survey);
    const checked = importQsf(document, surveyId, 'definition');
    await versions.saveDraft(trx, principal, surveyId, toJson(checked.document), now);
    return { result, notices: checked.notices };
  });
}

/** The survey row, its access checked, locked for the caller's transaction (its lastModified moved to now). */
async function lockSurvey(
  trx: Queryable,
  principal: Principal,
  surveyId: string,
  need: SurveyPermission,
  now: string,
) {
  const header = await store.findSurveyHeader(trx, principal, surveyId);
  if (!header) throw surveyNotFound(surveyId);
  await requireSurveyAccess(trx, principal, header, need);
  await store.updateSurvey(trx, principal, surveyId, { updated_at: now });
  const survey = await store.findSurvey(trx, principal, surveyId);
  if (!survey) throw surveyNotFound(surveyId);
  return survey;
}

export interface NewVersion {
  description: string;
  /** Default true: the version becomes the live definition; false keeps a snapshot only. */
  published?: boolean | undefined;
}

/**
 * `POST …/versions`: keeps the working definition as a new version. Published, it becomes the live
 * definition in the same transaction: `surveys.version` moves (new sessions compile it), the quota rows
 * follow its quotas (kept ones keep their counts), and the draft is gone. The first version also keeps
 * the definition the survey had before it, as version 0, for the sessions started on it.
 */
export async function publishSurveyVersion(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  input: NewVersion,
): Promise<versions.SurveyVersionListRow> {
  const now = deps.clock.now();
  const published = input.published ?? true;
  return deps.db.transaction().execute(async (trx) => {
    const survey = await lockSurvey(
      trx,
      principal,
      surveyId,
      'surveyManagement.editSurveys',
      isoSeconds(now),
    );
    const draft = await versions.findDraft(trx, principal, surveyId);
    const text = draft?.definition ?? survey.definition;
    const top = await versions.lastVersionNumber(trx, principal, surveyId);
    const base = {
      organization_id: principal.organizationId,
      survey_id: surveyId,
      created_at: isoSeconds(now),
    };
    if (top === undefined) {
      await versions.insertVersion(trx, {
        ...base,
        id: versionId(now, 0),
        version_number: 0,
        description: 'The survey before its first version',
        user_id: null,
        published: 1,
        engine_version: 0,
        definition: survey.definition,
      });
    }
    if (published) {
      await store.updateSurvey(trx, principal, surveyId, { definition: text });
      await versions.replaceQuotas(trx, principal, surveyId, quotaRows(principal, fromJson(text)));
      await versions.deleteDraft(trx, principal, surveyId);
    }
    const number = (top ?? 0) + 1;
    const row = {
      ...base,
      id: versionId(now, number),
      version_number: number,
      description: input.description,
      user_id: principal.userId,
      published: published ? 1 : 0,
      engine_version: published ? survey.version + 1 : null,
    };
    await versions.insertVersion(trx, { ...row, definition: text });
    return row;
  });
}

/**
 * A version id as the real service writes them: a decimal number in a string, falling as time goes on
 * (2^63 − 1 less the milliseconds), distinct per version number within a millisecond.
 */
function versionId(now: Date, number: number): string {
  return String(9223372036854775807n - BigInt(now.getTime()) * 1000n - BigInt(number % 1000));
}

export async function listSurveyVersions(deps: Deps, principal: Principal, surveyId: string) {
  await accessibleSurvey(deps.db, principal, surveyId, 'see');
  return versions.listVersions(deps.db, principal, surveyId);
}

export async function getSurveyVersion(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  versionId: string,
): Promise<{ survey: SurveyRecord; version: versions.SurveyVersionRow; document: QsfDocument }> {
  const survey = await accessibleSurvey(deps.db, principal, surveyId, 'see');
  const version = await versions.findVersion(deps.db, principal, surveyId, versionId);
  if (!version) throw ApiError.of('FW_DEF_4', `Version ${versionId} of survey ${surveyId} not found.`);
  return { survey, version, document: fromJson<QsfDocument>(version.definition) };
}
