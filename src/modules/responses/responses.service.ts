import { isoSeconds } from '../../clock.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import {
  type AnswerValue,
  isMetadataKey,
  isQuestionKey,
  labelsOf,
  RESPONSE_EVENT_CONTEXT,
  RESPONSE_EVENT_CONTEXT_MAX,
  type Survey,
  withDerivedAnswers,
} from '../surveys/definition/response-values.js';
import { grants, type SurveyNeed } from '../surveys/survey-permissions.js';
import {
  countTowardsQuotas,
  moveResponseCounts,
  surveyForResponses,
} from '../surveys/survey-responses.service.js';
import { requireSurveyAccess } from '../surveys/surveys.service.js';
import { checkAnswer } from './check-answer.js';
import type { CompletedResponseInput } from './record-response.js';
import { recordInBatch } from './response-batches.js';
import * as store from './responses.store.js';

type Values = Record<string, unknown>;

interface SplitValues {
  answers: Record<string, AnswerValue>;
  embeddedData: Record<string, string>;
  metadata: Values;
}

/**
 * Splits a request's `values` (COMPAT.md "Responses") into answers under the survey's value keys, metadata
 * and embedded data (any other name). A QID… key the survey does not produce, a value of the wrong kind,
 * or a ResponseEventContext over 50 characters is a 400 naming `values.<key>`.
 */
function splitValues(survey: Survey, values: Values): SplitValues {
  const out: SplitValues = { answers: {}, embeddedData: {}, metadata: {} };
  for (const [name, value] of Object.entries(values)) {
    const field = `values.${name}`;
    if (isMetadataKey(name)) {
      out.metadata[name] = value;
    } else if (isQuestionKey(name)) {
      const key = survey.keys.get(name);
      if (!key) throw ApiError.invalid(field, 'is not a value key of this survey');
      const answer = checkAnswer(survey, key, value, field);
      if (answer !== undefined) out.answers[name] = answer;
    } else {
      if (value === null || typeof value === 'object')
        throw ApiError.invalid(field, 'must be a string (embedded data) or a number');
      out.embeddedData[name] = String(value);
    }
  }
  const context = out.embeddedData[RESPONSE_EVENT_CONTEXT];
  if (context !== undefined && [...context].length > RESPONSE_EVENT_CONTEXT_MAX)
    throw ApiError.invalid(
      `values.${RESPONSE_EVENT_CONTEXT}`,
      `must be at most ${RESPONSE_EVENT_CONTEXT_MAX} characters`,
    );
  return out;
}

function dateAt(metadata: Values, name: string): Date | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw ApiError.invalid(`values.${name}`, 'must be an ISO 8601 date-time');
  return date;
}

function integerAt(metadata: Values, name: string, min: number, max: number): number | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  const n = Number(value);
  if (typeof value === 'boolean' || !Number.isInteger(n) || n < min || n > max)
    throw ApiError.invalid(`values.${name}`, `must be an integer from ${min} to ${max}`);
  return n;
}

function stringAt(metadata: Values, name: string): string | undefined {
  const value = metadata[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw ApiError.invalid(`values.${name}`, 'must be a string');
  return value;
}

/**
 * The survey of the caller's organisation with its value keys, if the caller may manage it; else 404/403.
 * With a response's `survey_version`, the definition the response was taken on (issue 15).
 */
async function surveyOrThrow(
  db: Queryable,
  principal: Principal,
  surveyId: string,
  need: SurveyNeed,
  definitionVersion?: number | null,
) {
  const survey = await surveyForResponses(db, principal, surveyId, definitionVersion);
  if (!survey) throw ApiError.of('GSI_2', `Survey ${surveyId} not found.`);
  const access = await requireSurveyAccess(db, principal, { id: survey.id, owner_id: survey.ownerId }, need);
  return { ...survey, access };
}

/**
 * `POST /v3/surveys/{surveyId}/responses`: a completed response from the API, with its completion event.
 * Written with the survey's other completions arriving at the same time (response-batches.ts); what is
 * checked, recorded and answered is the response's own.
 */
export async function createResponse(deps: Deps, principal: Principal, surveyId: string, values: Values) {
  const now = deps.clock.now();
  return recordInBatch(deps, surveyId, {
    principal,
    check: async (trx, survey) => {
      await requireSurveyAccess(
        trx,
        principal,
        { id: survey.id, owner_id: survey.ownerId },
        'response.editSurveyResponses',
      );
      return completedInput(survey, surveyId, values, now);
    },
  });
}

/** A request's `values` checked against the survey and laid out for recording (COMPAT.md "Responses"). */
function completedInput(survey: Survey, surveyId: string, values: Values, now: Date): CompletedResponseInput {
  const { answers, embeddedData, metadata } = splitValues(survey, values);
  const finished = metadata.finished;
  if (finished !== undefined && ![0, 1, true, false, '0', '1'].includes(finished as never))
    throw ApiError.invalid('values.finished', 'must be 1, 0, true or false');
  const startDate = dateAt(metadata, 'startDate');
  const endDate = dateAt(metadata, 'endDate');
  if (startDate && endDate && endDate < startDate)
    throw ApiError.invalid('values.endDate', 'must not be before values.startDate');
  return {
    surveyId,
    answers,
    embeddedData,
    now,
    ...(startDate ? { startDate } : {}),
    ...(endDate ? { endDate } : {}),
    status: integerAt(metadata, 'status', 0, 64) ?? 0,
    progress: integerAt(metadata, 'progress', 0, 100) ?? 100,
    finished: finished === undefined ? true : finished === 1 || finished === true || finished === '1',
    ipAddress: stringAt(metadata, 'ipAddress') ?? null,
    userLanguage: stringAt(metadata, 'userLanguage') ?? null,
    distributionChannel: stringAt(metadata, 'distributionChannel') ?? 'anonymous',
  };
}

/** A response of the survey, with the survey as the response was taken on (its version's definition). */
async function responseInSurvey(
  db: Queryable,
  principal: Principal,
  surveyId: string,
  responseId: string,
  need: SurveyNeed,
) {
  const found = await store.findResponse(db, principal, responseId);
  const row = found?.survey_id === surveyId ? found : undefined;
  // The survey first: no such survey (or no access to it) answers so, whether the response exists or not.
  const survey = await surveyOrThrow(db, principal, surveyId, need, row?.survey_version);
  if (!row) throw responseNotFound(responseId);
  return { row, survey };
}

/**
 * `GET /v3/surveys/{surveyId}/responses/{responseId}`: the response, and the published version it was
 * taken on (`survey_versions.id`; null before the survey's first publication and for responses recorded
 * before migration 0019).
 */
export async function getResponse(deps: Deps, principal: Principal, surveyId: string, responseId: string) {
  const { row, survey } = await responseInSurvey(
    deps.db,
    principal,
    surveyId,
    responseId,
    'result.viewSurveyResults',
  );
  return {
    row,
    surveyVersionId: row.survey_version === null ? null : survey.publishedVersionId,
    personalData: grants(survey.access, 'result.viewPersonalData'),
  };
}

export interface ResponseUpdate {
  surveyId?: string | undefined;
  embeddedData?: Record<string, unknown> | undefined;
  values?: Values | undefined;
  resetRecordedDate?: boolean | undefined;
}

/**
 * `PUT /v3/responses/{responseId}`: sets embedded data fields and answer values (a null value removes
 * one), recomputes labels, and moves quota counts when the answers now meet other quotas, all by the
 * definition the response was taken on (issue 15). No event: the response was completed before.
 */
export async function updateResponse(
  deps: Deps,
  principal: Principal,
  responseId: string,
  body: ResponseUpdate,
) {
  await deps.db.transaction().execute(async (trx) => {
    const row = await store.findResponse(trx, principal, responseId);
    if (!row || (body.surveyId !== undefined && body.surveyId !== row.survey_id))
      throw responseNotFound(responseId);
    const survey = await surveyOrThrow(
      trx,
      principal,
      row.survey_id,
      'response.editSurveyResponses',
      row.survey_version,
    );
    const changes = { ...(body.values ?? {}) };
    for (const [name, value] of Object.entries(body.embeddedData ?? {})) {
      if (isQuestionKey(name) || isMetadataKey(name))
        throw ApiError.invalid(`embeddedData.${name}`, 'is not an embedded data field name');
      changes[name] = value;
    }
    const removed = Object.keys(changes).filter((name) => changes[name] === null);
    for (const name of removed) {
      if (isMetadataKey(name)) throw ApiError.invalid(`values.${name}`, 'cannot be removed');
      delete changes[name];
    }
    const { answers, embeddedData, metadata } = splitValues(survey, changes);
    if (Object.keys(metadata).length > 0)
      throw ApiError.invalid(
        `values.${Object.keys(metadata)[0]}`,
        'is response metadata and cannot be changed',
      );
    const before = fromJson<Values>(row.values);
    const merged: Values = { ...before, ...answers, ...embeddedData };
    for (const name of removed) delete merged[name];
    const values = withDerivedAnswers(survey, merged as Record<string, AnswerValue>);
    const embedded = { ...fromJson<Record<string, string>>(row.embedded_data), ...embeddedData };
    for (const name of removed) delete embedded[name];
    await countTowardsQuotas(trx, principal, survey, [before], -1);
    await countTowardsQuotas(trx, principal, survey, [values], 1);
    const now = isoSeconds(deps.clock.now());
    await store.updateResponse(trx, principal, responseId, {
      values: toJson(body.resetRecordedDate ? { ...values, recordedDate: now } : values),
      labels: toJson(labelsOf(survey, values)),
      embedded_data: toJson(embedded),
      updated_at: now,
      ...(body.resetRecordedDate ? { recorded_date: now } : {}),
    });
  });
}

/**
 * Deletes a response: it leaves the auditable or generated count and joins the deleted count, on the
 * survey and on its owner. Quota counts drop only with `decrementQuotas` (as the real service's option),
 * by the quotas of the definition the response was taken on, as it was counted.
 */
export async function deleteResponse(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  responseId: string,
  decrementQuotas: boolean,
) {
  await deps.db.transaction().execute(async (trx) => {
    const { row, survey } = await responseInSurvey(
      trx,
      principal,
      surveyId,
      responseId,
      'response.editSurveyResponses',
    );
    const bucket = row.status === 0 || row.status === 16 ? 'auditable' : 'generated';
    await moveResponseCounts(trx, principal, survey, { [bucket]: -1, deleted: 1 });
    if (decrementQuotas) await countTowardsQuotas(trx, principal, survey, [fromJson<Values>(row.values)], -1);
    await store.deleteResponse(trx, principal, responseId);
  });
}

/**
 * Streams a survey's responses in recorded order, a batch at a time, never holding them all: for exports.
 * Keyset batches on (survey_id, seq) behave the same on both engines and need no server-side cursor.
 */
export async function* streamSurveyResponses(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  batchSize = 500,
): AsyncGenerator<store.ResponseRow> {
  let after = 0;
  for (;;) {
    const batch = await store.listResponsesAfter(db, scope, surveyId, after, batchSize);
    yield* batch;
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.seq;
  }
}

export function responseNotFound(responseId: string): ApiError {
  return ApiError.of('FW_RSP_1', `Response ${responseId} not found.`);
}
