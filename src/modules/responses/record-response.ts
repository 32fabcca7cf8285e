import type { Insertable } from 'kysely';
import { isoSeconds } from '../../clock.js';
import { dialectOf, isUniqueViolation, type Write } from '../../db/dialect/index.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { type ActiveSubscription, eventWrites } from '../../events/record-event.js';
import { completedResponseTopic } from '../../events/topics.js';
import { ApiError } from '../../http/errors.js';
import { newIds } from '../../http/ids.js';
import type { ExportValue } from '../exports/formats/export-layout.js';
import { storedJsonMembers } from '../exports/formats/json-writer.js';
import { storedJsonLayoutOf } from '../exports/layout/stored-json.js';
import {
  type AnswerValue,
  displayedValuesOf,
  labelsOf,
  RESPONSE_EVENT_CONTEXT,
  RESPONSE_EVENT_CONTEXT_MAX,
  withDerivedAnswers,
} from '../surveys/definition/response-values.js';
import {
  quotasMatched,
  quotaWrites,
  responseCountWrites,
  type SurveyForResponses,
  surveyForResponses,
} from '../surveys/survey-responses.service.js';
import { listResponseOwners, responseInserts } from './responses.store.js';
import type { ResponsesTable } from './responses.tables.js';

export interface CompletedResponseInput {
  surveyId: string;
  /** Answers under the survey's value keys (surveys/definition/value-keys.ts), already checked: recodes, 1, numbers, texts. */
  answers: Record<string, AnswerValue>;
  /** Embedded data by field name (set in the flow, from URL parameters, or by the caller). */
  embeddedData?: Record<string, string>;
  /** When the respondent started and finished; both default to `now`. */
  startDate?: Date;
  endDate?: Date;
  /** When the response is recorded: from the caller's clock (deps.clock.now()). */
  now: Date;
  /** 0 IP Address (default: a real respondent), 1 Survey Preview, 2 Survey Test, 4 Imported, … */
  status?: number;
  /** 0–100, default 100. */
  progress?: number;
  /** Default true. */
  finished?: boolean;
  ipAddress?: string | null;
  userAgent?: string | null;
  userLanguage?: string | null;
  /** The contact (CID_) of an individual link; the event's RecipientID. */
  recipientId?: string | null;
  /** The distribution (EMD_) of an individual link; the event's DistributionID. */
  distributionId?: string | null;
  /** `anonymous` (default), `email`, `preview`, `test`, … */
  distributionChannel?: string;
  /** The engine session (FS_) that completed: a session is recorded once (FW_RSP_2 the second time). */
  sessionId?: string | null;
  /** Keys shown to the respondent; defaults to the answered keys. */
  displayedFields?: string[];
  /** Per key, the values the respondent was offered; defaults to every choice of the answered keys. */
  displayedValues?: Record<string, AnswerValue[]>;
  /**
   * The response's id when the caller names it first (a new id for the engine's session to hold; an
   * import's own, checked free); default a new one.
   */
  responseId?: string;
  /** Response imports: the recorded date, kept. */
  recordedDate?: Date;
  /** Response imports: seconds as the file says; default end − start. */
  duration?: number;
  /** Response imports: values kept as given beside the answers (locationLatitude, recipientEmail, display orders QID6_DO_1 …). */
  extraMetadata?: Record<string, AnswerValue>;
  /** Default true. Imports emit none: nobody completed the survey now (docs/exports.md "Response imports"). */
  emitEvent?: boolean;
}

export interface RecordedResponse {
  responseId: string;
  /** Quotas the response was counted towards. */
  quotas: string[];
}

/** CompletedDate of the event: `YYYY-MM-DD HH:MM:SS` in UTC (COMPAT.md "Dates"). */
export const eventDate = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

/** Status 0 (a real respondent) and 16 (offline app) are auditable; previews, tests and imports are generated. */
const isAuditable = (status: number) => status === 0 || status === 16;

/**
 * What a caller brings to a recording: `alongside`, its own writes (the engine's closing of the session),
 * run first in the recording's round trip; `subscriptions`, the read of the organisation's active
 * subscriptions, begun beside the transaction (eventWrites).
 */
export interface Along {
  alongside?: readonly Write[];
  subscriptions?: Promise<ActiveSubscription[]>;
}

/**
 * THE way a completed response is recorded, by the API (`POST /v3/surveys/{id}/responses`) and by the
 * survey-taking engine alike. Call it inside the transaction that does the rest of the work: it writes
 * the response (values, labels, displayedFields, displayedValues and metadata), counts it towards the
 * quotas whose condition it meets and in its owner's responseCounts (the survey's are counted from its
 * responses), and emits
 * `surveyengine.completedResponse.{SurveyID}` through the outbox with Status, SurveyID, ResponseID,
 * CompletedDate, RecipientID and DistributionID only when present, and ResponseEventContext when the
 * embedded field of that name is set.
 *
 * The response is taken on the survey's live definition, or with `definitionVersion` (an engine
 * session's, issue 15) on the publication the session ran: its labels, derived answers, displayed values
 * and quotas are that definition's, and the response keeps which one it was (`survey_version`).
 *
 * ResponseEventContext is at most 50 characters (spec 6, 8): a longer one is refused here with a 400
 * (the API's rule); the engine cuts the value at 50 before calling (cutResponseEventContext).
 * `along`: the caller's own writes and subscriptions read (Along).
 * Throws GSI_2 when the scope has no such survey, FW_RSP_2 when the session was already recorded.
 */
export async function recordCompletedResponse(
  trx: Queryable,
  scope: Scope,
  input: CompletedResponseInput,
  definitionVersion?: number | null,
  along: Along = {},
): Promise<RecordedResponse> {
  const survey = await surveyForResponses(trx, scope, input.surveyId, definitionVersion);
  if (!survey) throw ApiError.of('GSI_2', `Survey ${input.surveyId} not found.`);
  const prepared = prepareResponses(scope, survey, [input]);
  const [recorded] = await writePreparedResponses(trx, scope, survey, prepared, along);
  return recorded as RecordedResponse;
}

/**
 * Records several completed responses of one survey with the rules of one (recordCompletedResponse), in a
 * statement per step instead of a statement per step and response: their numbers drawn at once, one
 * multi-row insert, one update per quota matched, their completion events and deliveries in one insert
 * each (eventWrites), one move of the owner's counts, all in one round trip (decision 0021). For response
 * imports, whose batches of hundreds otherwise ran four statements a response, and for the API's
 * completions recorded together (response-batches.ts).
 */
export async function recordManyForSurvey(
  trx: Queryable,
  scope: Scope,
  survey: SurveyForResponses,
  inputs: readonly CompletedResponseInput[],
): Promise<RecordedResponse[]> {
  return writePreparedResponses(trx, scope, survey, prepareResponses(scope, survey, inputs));
}

/**
 * recordManyForSurvey's first half, which reads and writes nothing: each response checked and laid out on
 * `survey` (its row, and the quotas whose condition it meets). A caller's own id is kept; the others are
 * drawn together, as many as are missing. A response import prepares its next batch with it while the
 * batch before is being written (response-import.job.ts).
 */
export function prepareResponses(
  scope: Scope,
  survey: SurveyForResponses,
  inputs: readonly CompletedResponseInput[],
): PreparedResponse[] {
  const newResponseIds = newIds('R', inputs.filter((input) => input.responseId === undefined).length);
  return inputs.map((input) =>
    prepareResponse(scope, survey, input, input.responseId ?? (newResponseIds.pop() as string)),
  );
}

/**
 * recordManyForSurvey's second half: writes responses prepared on `survey` (prepareResponses, on the
 * definition this transaction read), with a statement per step, all in one round trip after `alongside`.
 */
export async function writePreparedResponses(
  trx: Queryable,
  scope: Scope,
  survey: SurveyForResponses,
  prepared: readonly PreparedResponse[],
  { alongside = [], subscriptions }: Along = {},
): Promise<RecordedResponse[]> {
  if (prepared.length === 0) {
    await dialectOf(trx).runWrites(trx, alongside);
    return [];
  }
  // Numbered under the survey's recording lock, shared (surveyForResponses): decision 0012. On PostgreSQL by
  // the responses' insert itself (decisions 0021, 0023), in row order within each insert of INSERT_ROWS; the
  // batches recorded (imports' 500, the API's 64) are one insert each, so they keep the input's order.
  const inserts = await responseInserts(
    trx,
    prepared.map(({ row }) => row),
  );
  const topic = completedResponseTopic(survey.id);
  const events = await eventWrites(
    trx,
    scope,
    prepared.flatMap(({ input, responseId }) =>
      input.emitEvent === false
        ? []
        : [{ topic, payload: completionPayload(responseId, survey.id, input, input.now), now: input.now }],
    ),
    subscriptions,
  );
  // The owner's counts go to one stripe of their counter, at random (decision 0015): recordings of one
  // owner's surveys seldom write the same row.
  const auditable = prepared.filter(({ row }) => isAuditable(row.status)).length;
  const delta = { auditable, generated: prepared.length - auditable };
  // Every write of the recording in one round trip (decision 0021): the caller's, the responses, their
  // quotas, their events and deliveries, the owner's counts.
  const writes = [
    ...alongside,
    ...inserts,
    ...quotaWrites(
      trx,
      scope,
      survey,
      prepared.map(({ quotas }) => quotas),
      1,
    ),
    ...events.writes,
    ...responseCountWrites(trx, scope, survey, delta),
  ];
  await dialectOf(trx)
    .runWrites(trx, writes)
    .catch((error: unknown) => {
      // The unique index on session_id, in the insert itself: an engine session is recorded once.
      const session = prepared.find(({ input }) => input.sessionId)?.input.sessionId;
      if (session && isUniqueViolation(error))
        throw ApiError.of('FW_RSP_2', `Session ${session} has already been recorded.`);
      throw error;
    });
  return prepared.map(({ responseId, quotas }) => ({ responseId, quotas }));
}

/** A response checked and laid out on a survey's definition (prepareResponses); nothing written yet. */
export interface PreparedResponse {
  input: CompletedResponseInput;
  responseId: string;
  row: Omit<Insertable<ResponsesTable>, 'seq'> & { status: number };
  /** The quotas whose condition the response meets. */
  quotas: string[];
}

/** The row of one response, checked (ResponseEventContext) and laid out; nothing written yet. */
function prepareResponse(
  scope: Scope,
  survey: SurveyForResponses,
  input: CompletedResponseInput,
  responseId: string,
): PreparedResponse {
  const embedded = input.embeddedData ?? {};
  const context = embedded[RESPONSE_EVENT_CONTEXT];
  if (context !== undefined && [...context].length > RESPONSE_EVENT_CONTEXT_MAX)
    throw ApiError.invalid(
      RESPONSE_EVENT_CONTEXT,
      `must be at most ${RESPONSE_EVENT_CONTEXT_MAX} characters`,
    );

  const now = input.now;
  const answers = withDerivedAnswers(survey, input.answers);
  const metadata = metadataOf(input, responseId);
  // The row's columns are the metadata's (its status the caller's), read before the answers and embedded
  // data join it.
  const status = input.status ?? 0;
  const { finished, progress, duration, startDate, endDate, recordedDate } = metadata;
  const { ipAddress, userLanguage, distributionChannel } = metadata;
  // The values: the metadata, then the answers, then the embedded data (a later key wins, as in a spread).
  // Assigned into an object without a prototype, so that a field named `__proto__` (an imported column)
  // is a field like any other; a spread of the three measured 16 µs a response more.
  const values: Record<string, unknown> = Object.assign(Object.create(null), metadata, answers, embedded);
  const answerKeys = Object.keys(answers);
  // As stored: the json export members are written from this text, read back (exportJsonOf).
  const stored = { values: toJson(values), labels: toJson(labelsOf(survey, values)) };
  const row = {
    id: responseId,
    organization_id: scope.organizationId,
    survey_id: survey.id,
    status,
    finished,
    progress,
    duration,
    start_date: startDate,
    end_date: endDate,
    recorded_date: recordedDate,
    ip_address: ipAddress,
    user_agent: input.userAgent ?? null,
    user_language: userLanguage,
    recipient_id: input.recipientId ?? null,
    distribution_id: input.distributionId ?? null,
    distribution_channel: distributionChannel,
    session_id: input.sessionId ?? null,
    survey_version: survey.definitionVersion,
    values: stored.values,
    labels: stored.labels,
    displayed_fields: toJson(input.displayedFields ?? answerKeys),
    displayed_values: toJson(input.displayedValues ?? displayedValuesOf(survey, answerKeys)),
    embedded_data: toJson(embedded),
    updated_at: isoSeconds(now),
    // What a json export writes for it, so that an export on the same layout copies it (decision 0022).
    ...exportJsonOf(survey, stored),
  };
  return { input, responseId, row, quotas: quotasMatched(survey, values) };
}

/**
 * A response's json export members as it is recorded, on its survey's json export layout, so that an
 * export on the same layout copies them (decision 0022); null without the survey's definition. They are
 * written from the stored text of its values and labels, read back as an export reads it: a value that JSON
 * does not keep (NaN, undefined) is then what an export writing them from the values would see.
 */
export function exportJsonOf(
  survey: Pick<SurveyForResponses, 'definition'>,
  stored: { values: string; labels: string },
): { export_json: string | null; export_json_layout: string | null } {
  if (survey.definition === undefined) return { export_json: null, export_json_layout: null };
  const layout = storedJsonLayoutOf(survey.definition);
  return {
    export_json: storedJsonMembers(
      layout,
      fromJson<Record<string, ExportValue>>(stored.values),
      fromJson<Record<string, string>>(stored.labels),
    ),
    export_json_layout: layout.key,
  };
}

/** The response's metadata values (COMPAT.md "Responses"), then the caller's extra ones. */
function metadataOf(input: CompletedResponseInput, responseId: string) {
  const now = input.now;
  const start = input.startDate ?? now;
  const end = input.endDate ?? now;
  return {
    startDate: isoSeconds(start),
    endDate: isoSeconds(end),
    status: input.status ?? 0,
    ipAddress: input.ipAddress ?? null,
    progress: input.progress ?? 100,
    duration: input.duration ?? Math.max(0, Math.round((end.getTime() - start.getTime()) / 1000)),
    finished: (input.finished ?? true) ? 1 : 0,
    recordedDate: isoSeconds(input.recordedDate ?? now),
    _recordId: responseId,
    locationLatitude: null,
    locationLongitude: null,
    distributionChannel: input.distributionChannel ?? 'anonymous',
    userLanguage: input.userLanguage ?? null,
    ...input.extraMetadata,
  };
}

/** Spec 6: surveyengine.completedResponse.{SurveyID}; optional attributes only when they have a value. */
function completionPayload(responseId: string, surveyId: string, input: CompletedResponseInput, now: Date) {
  const payload: Record<string, unknown> = { Status: 'Complete', SurveyID: surveyId, ResponseID: responseId };
  if (input.recipientId) payload.RecipientID = input.recipientId;
  const context = input.embeddedData?.[RESPONSE_EVENT_CONTEXT];
  if (context) payload.ResponseEventContext = context;
  payload.CompletedDate = eventDate(now);
  if (input.distributionId) payload.DistributionID = input.distributionId;
  return payload;
}

/** For the engine: the embedded field's value cut to the 50 characters the event carries (docs/surveys.md). */
export function cutResponseEventContext(embeddedData: Record<string, string>): Record<string, string> {
  const context = embeddedData[RESPONSE_EVENT_CONTEXT];
  if (context === undefined || [...context].length <= RESPONSE_EVENT_CONTEXT_MAX) return embeddedData;
  return {
    ...embeddedData,
    [RESPONSE_EVENT_CONTEXT]: [...context].slice(0, RESPONSE_EVENT_CONTEXT_MAX).join(''),
  };
}

/**
 * For response imports: which of `ids` are taken, and where — `survey` (already in this survey, so an
 * import skips the row) or `elsewhere` (another survey or organisation: the import gives a new id).
 */
export async function responseIdsInUse(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  ids: readonly string[],
): Promise<Map<string, 'survey' | 'elsewhere'>> {
  const rows = ids.length === 0 ? [] : await listResponseOwners(db, ids);
  const here = (row: { organization_id: string; survey_id: string }) =>
    row.organization_id === scope.organizationId && row.survey_id === surveyId;
  return new Map(rows.map((row) => [row.id, here(row) ? 'survey' : 'elsewhere']));
}
