import { fromJson } from '../../db/json.js';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
import { addOwnerResponseCounts } from '../users/users.service.js';
import { evaluateLogic } from './definition/logic.js';
import { type QsfDocument, type QsfQuestion, questionsOf, quotasOf } from './definition/qsf.js';
import { recordedFacts } from './definition/recorded-facts.js';
import { type ValueKey, valueKeyIndex } from './definition/value-keys.js';
import * as store from './surveys.store.js';

/** What the responses module needs of a survey: who owns it, and its questions and value keys. */
export interface SurveyForResponses {
  id: string;
  ownerId: string;
  keys: ReadonlyMap<string, ValueKey>;
  questions: ReadonlyMap<string, QsfQuestion>;
  /** The quotas' conditions (from the definition, so as unchanging as it); their counts live in the table. */
  quotas: readonly { id: string; condition: unknown }[];
}

type Compiled = Pick<SurveyForResponses, 'keys' | 'questions' | 'quotas'>;

// A survey's definition never changes after it is created, so its compiled form can be kept by id.
// Short-lived and safe to lose (DESIGN.md): each node keeps its own, bounded.
const compiledCache = new Map<string, Compiled>();
const CACHE_SIZE = 200;

async function compiled(db: Queryable, scope: Scope, surveyId: string): Promise<Compiled | undefined> {
  const cached = compiledCache.get(surveyId);
  if (cached) return cached;
  const row = await store.findSurvey(db, scope, surveyId);
  if (!row) return undefined;
  const doc = fromJson<QsfDocument>(row.definition);
  const entry: Compiled = {
    keys: valueKeyIndex(doc),
    questions: new Map(questionsOf(doc).map((q) => [q.QuestionID, q])),
    quotas: quotasOf(doc).map((q) => ({ id: q.ID, condition: q.Logic })),
  };
  if (compiledCache.size >= CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value as string);
  compiledCache.set(surveyId, entry);
  return entry;
}

/** The survey of the scope's organisation, with its value keys; undefined when there is none. */
export async function surveyForResponses(
  db: Queryable,
  scope: Scope,
  surveyId: string,
): Promise<SurveyForResponses | undefined> {
  const header = await store.findSurveyHeader(db, scope, surveyId);
  if (!header) return undefined;
  const entry = await compiled(db, scope, surveyId);
  if (!entry) return undefined;
  return { id: header.id, ownerId: header.owner_id, ...entry };
}

export interface CountDelta {
  auditable?: number;
  generated?: number;
  deleted?: number;
}

/**
 * Moves the survey's responseCounts and its owner's (spec 2.5) together. With `nextSeq`, also hands out
 * the survey's next response sequence number (returned).
 */
export async function moveResponseCounts(
  db: Queryable,
  scope: Scope,
  survey: { id: string; ownerId: string },
  delta: CountDelta,
  nextSeq = false,
): Promise<number> {
  const seq = await store.addSurveyResponseCounts(db, scope, survey.id, { ...delta, seq: nextSeq ? 1 : 0 });
  await addOwnerResponseCounts(db, scope, survey.ownerId, delta);
  return seq;
}

/** Counts a response towards every quota whose condition its values meet (or takes it back: delta -1). */
export async function countTowardsQuotas(
  db: Queryable,
  scope: Scope,
  survey: SurveyForResponses,
  values: Record<string, unknown>,
  delta: 1 | -1,
): Promise<string[]> {
  const facts = recordedFacts(values, survey.questions);
  const matched = survey.quotas.filter((q) => evaluateLogic(q.condition, facts)).map((q) => q.id);
  await store.addQuotaCounts(db, scope, survey.id, matched, delta);
  return matched;
}
