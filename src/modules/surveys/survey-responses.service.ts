import { Transaction } from 'kysely';
import { dialectOf, type Write } from '../../db/dialect/index.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { Database } from '../../tables.js';
import { ownerResponseCountsWrite } from '../users/users.service.js';
import { pinnedSurvey } from './compiled-survey.js';
import { evaluateLogic } from './definition/logic.js';
import type { QsfDocument, QsfQuestion } from './definition/qsf.js';
import { QuestionKeys, recordedFacts } from './definition/recorded-facts.js';
import type { ValueKey } from './definition/value-keys.js';
import * as store from './surveys.store.js';

/** What the responses module needs of a survey: who owns it, and its questions and value keys. */
export interface SurveyForResponses {
  id: string;
  ownerId: string;
  keys: ReadonlyMap<string, ValueKey>;
  questions: ReadonlyMap<string, QsfQuestion>;
  /** The quotas' conditions (from the definition, so as unchanging as it); their counts live in the table. */
  quotas: readonly { id: string; condition: unknown }[];
  /**
   * Which publication the definition is (issue 15): the `surveys.version` it moved to, 0 before the
   * first. A response recorded with this survey keeps it (`responses.survey_version`).
   */
  definitionVersion: number;
  /**
   * The `surveys.version` of the compiled definition these keys come from: it moves with every change of
   * the definition, so two reads with the same version have the same definition (compiled-survey.ts).
   */
  version: number;
  /** The published version (`survey_versions.id`, the real service's `versionID`); null before the first. */
  publishedVersionId: string | null;
  /** The compiled version's value keys by question, for the quotas' facts (recorded-facts.ts). */
  questionKeys: QuestionKeys;
  /**
   * The compiled version's definition, which its responses' json export members are written on
   * (record-response.ts, decision 0022); without it a response is recorded without them.
   */
  definition?: QsfDocument;
}

/**
 * A SurveyForResponses as a message to another thread carries it (a structured clone): everything but its
 * QuestionKeys, whose class a clone would lose. surveyFromPortable makes it whole again.
 */
export type PortableSurvey = Omit<SurveyForResponses, 'questionKeys'>;

export function portableSurvey(survey: SurveyForResponses): PortableSurvey {
  const { questionKeys: _, ...portable } = survey;
  return portable;
}

export function surveyFromPortable(survey: PortableSurvey): SurveyForResponses {
  return { ...survey, questionKeys: new QuestionKeys(survey.questions) };
}

/**
 * A survey's recording lock (decision 0012). Every transaction that records (or deletes) a response holds
 * it shared, so recordings never wait for each other; what needs every recording before it settled takes
 * it alone for an instant (`settleRecordings`): changing the owner or deleting the survey (the counts they
 * move), and an export finding the last response it may take. PostgreSQL only; SQLite runs one write
 * transaction at a time already.
 */
const RECORDING_LOCK = 4_242_020;

/**
 * The survey of the scope's organisation, with its value keys; undefined when there is none. In a
 * transaction, it first takes the survey's recording lock shared: a response recorded in that transaction
 * goes to the owner read here and draws its sequence number under the lock. With a session's
 * `definitionVersion` (survey-taking.service.ts) or a response's `survey_version`, the keys, questions
 * and quotas are those of the definition the session ran (issue 15); without, the survey's current one.
 */
export async function surveyForResponses(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  definitionVersion?: number | null,
): Promise<SurveyForResponses | undefined> {
  if (db instanceof Transaction) await dialectOf(db).shareKeys(db, RECORDING_LOCK, [surveyId]);
  const header = await store.findSurveyHeader(db, scope, surveyId);
  if (!header) return undefined;
  const found = await pinnedSurvey(db, header, definitionVersion);
  if (!found) return undefined;
  const compiled = found.pinned;
  return {
    id: header.id,
    ownerId: header.owner_id,
    keys: compiled.keys,
    questions: compiled.questions,
    quotas: compiled.quotas,
    definitionVersion: compiled.definitionVersion,
    version: compiled.version,
    publishedVersionId: compiled.publishedVersionId,
    questionKeys: compiled.questionKeys,
    definition: compiled.definition,
  };
}

/**
 * Waits for every transaction recording a response of the survey to end, and holds new ones off until
 * the caller's transaction ends: after it, every response numbered so far is committed or never will be.
 */
export async function settleRecordings(trx: Transaction<Database>, surveyId: string): Promise<void> {
  await dialectOf(trx).lockKeys(trx, RECORDING_LOCK, [surveyId]);
}

export interface CountDelta {
  auditable?: number;
  generated?: number;
  deleted?: number;
}

/**
 * Moves responseCounts (spec 2.5) as responses come and go: the owner's, and the survey's deleted count
 * (its auditable and generated ones are counted from its responses). The owner's move into one stripe
 * of their counter (users.store.ts, decision 0015), so recordings of one owner's surveys do not queue.
 */
export async function moveResponseCounts(
  db: Queryable,
  scope: Scope,
  survey: { id: string; ownerId: string },
  delta: CountDelta,
): Promise<void> {
  await dialectOf(db).runWrites(db, responseCountWrites(db, scope, survey, delta));
}

/** moveResponseCounts' writes, for a caller that runs them with its own (recording a response). */
export function responseCountWrites(
  db: Queryable,
  scope: Scope,
  survey: { id: string; ownerId: string },
  delta: CountDelta,
): Write[] {
  return [
    ...(delta.deleted ? [store.deletedResponsesWrite(db, scope, survey.id, delta.deleted)] : []),
    ownerResponseCountsWrite(db, scope, survey.ownerId, delta),
  ];
}

/** The survey's responseCounts (spec 2.5): auditable and generated counted, deleted kept. */
export async function responseCountsOf(
  db: Queryable,
  scope: Scope,
  survey: { id: string; response_count_deleted: number },
): Promise<{ auditable: number; generated: number; deleted: number }> {
  const live = await store.countLiveResponses(db, scope, survey.id);
  return { ...live, deleted: survey.response_count_deleted };
}

/**
 * Counts responses towards every quota whose condition their values meet (delta 1), or takes them back
 * (delta -1), with one update per quota matched; answers the quotas of each response, in order.
 */
export async function countTowardsQuotas(
  db: Queryable,
  scope: Scope,
  survey: SurveyForResponses,
  valuesList: readonly Record<string, unknown>[],
  delta: 1 | -1,
): Promise<string[][]> {
  const matched = valuesList.map((values) => quotasMatched(survey, values));
  await addToQuotas(db, scope, survey, matched, delta);
  return matched;
}

/** Counts responses towards (delta 1) or takes them back from (-1) the quotas each matched: one update per quota. */
export async function addToQuotas(
  db: Queryable,
  scope: Scope,
  survey: { id: string },
  matched: readonly string[][],
  delta: 1 | -1,
): Promise<void> {
  await dialectOf(db).runWrites(db, quotaWrites(db, scope, survey, matched, delta));
}

/** addToQuotas' writes, for a caller that runs them with its own (recording a response). */
export function quotaWrites(
  db: Queryable,
  scope: Scope,
  survey: { id: string },
  matched: readonly string[][],
  delta: 1 | -1,
): Write[] {
  const counts = new Map<string, number>();
  for (const id of matched.flat()) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts].map(([id, count]) => store.quotaCountWrite(db, scope, survey.id, id, delta * count));
}

/** The quotas whose condition a response's values meet (nothing read when the survey has none). */
export function quotasMatched(survey: SurveyForResponses, values: Record<string, unknown>): string[] {
  if (survey.quotas.length === 0) return [];
  const facts = recordedFacts(values, survey.questions, survey.questionKeys);
  return survey.quotas.filter((q) => evaluateLogic(q.condition, facts)).map((q) => q.id);
}
