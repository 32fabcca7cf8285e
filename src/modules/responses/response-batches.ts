import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import type { Database } from '../../tables.js';
import { type SurveyForResponses, surveyForResponses } from '../surveys/survey-responses.service.js';
import {
  type CompletedResponseInput,
  type RecordedResponse,
  recordManyForSurvey,
} from './record-response.js';

/**
 * Group commit for the API's completed responses (decision 0016). `POST /v3/surveys/{id}/responses`
 * requests of one survey that arrive while the survey's previous batch is being written wait for it, then
 * are written together: one transaction, the survey read once, and recordManyForSurvey's statements per
 * step rather than per response (numbers, insert, quotas, events, owner counts). Alone, a request is a
 * batch of one, written at once. Each request keeps its own outcome:
 * - what the request itself gets wrong (no access, a bad value) is its own error, checked in the batch's
 *   transaction as before, and the others are written;
 * - if writing the batch fails, each of its requests is written again alone, in a transaction of its own,
 *   so a failure stays with the request that causes it.
 */

/** One request's part of a batch: who asks, what it checks and records (validated by the caller's `check`). */
export interface BatchItem {
  principal: Principal;
  /** The request's checks against the survey as read in the batch's transaction; throws its ApiError. */
  check(trx: Queryable, survey: SurveyForResponses): Promise<CompletedResponseInput>;
}

interface Waiting extends BatchItem {
  resolve(recorded: RecordedResponse): void;
  reject(error: unknown): void;
}

interface Queue {
  waiting: Waiting[];
  writing: boolean;
}

/** Requests in one transaction at most: the batch's inserts stay well inside both engines' bound-value limits. */
export const MAX_BATCH = 64;

/** Per database handle, per organisation and survey: the requests waiting for the batch being written. */
const queuesByDb = new WeakMap<Kysely<Database>, Map<string, Queue>>();

/**
 * Records one completed response of `surveyId` in the next batch of that survey (see above); answers what
 * recording it alone would answer, or throws its error (GSI_2 when the scope has no such survey).
 */
export function recordInBatch(deps: Deps, surveyId: string, item: BatchItem): Promise<RecordedResponse> {
  let queues = queuesByDb.get(deps.db);
  if (!queues) {
    queues = new Map();
    queuesByDb.set(deps.db, queues);
  }
  const key = `${item.principal.organizationId}/${surveyId}`;
  let queue = queues.get(key);
  if (!queue) {
    queue = { waiting: [], writing: false };
    queues.set(key, queue);
  }
  const recorded = new Promise<RecordedResponse>((resolve, reject) =>
    (queue as Queue).waiting.push({ ...item, resolve, reject }),
  );
  if (!queue.writing) void writeQueue(deps, queues, key, surveyId, queue);
  return recorded;
}

/** Writes the queue's batches until nobody waits, then forgets the queue. */
async function writeQueue(
  deps: Deps,
  queues: Map<string, Queue>,
  key: string,
  surveyId: string,
  queue: Queue,
): Promise<void> {
  queue.writing = true;
  // Requests read from the network in the same turn join the first batch: on SQLite a transaction runs
  // without giving the event loop a turn, so without this wait no request would ever find one being written.
  await nextTurn();
  while (queue.waiting.length > 0) {
    await writeBatch(deps, surveyId, queue.waiting.splice(0, MAX_BATCH));
  }
  queue.writing = false;
  queues.delete(key);
}

/** Settles every item of the batch: written together, or (after a failed write) each alone. */
async function writeBatch(deps: Deps, surveyId: string, batch: Waiting[]): Promise<void> {
  let outcomes: Outcome[];
  try {
    outcomes = await deps.db.transaction().execute((trx) => recordTogether(trx, surveyId, batch));
  } catch (error) {
    if (batch.length === 1) {
      batch[0]?.reject(error);
      return;
    }
    for (const item of batch) await writeBatch(deps, surveyId, [item]);
    return;
  }
  for (const [i, item] of batch.entries()) {
    const outcome = outcomes[i] as Outcome;
    if ('error' in outcome) item.reject(outcome.error);
    else item.resolve(outcome.recorded);
  }
}

type Outcome = { recorded: RecordedResponse } | { error: ApiError };

/**
 * In the batch's transaction: the survey read once (under its recording lock), each request's own checks
 * (an ApiError is that request's answer), then the checked ones recorded together. Any other error fails
 * the transaction.
 */
async function recordTogether(
  trx: Queryable,
  surveyId: string,
  batch: readonly BatchItem[],
): Promise<Outcome[]> {
  const scope = (batch[0] as BatchItem).principal;
  const survey = await surveyForResponses(trx, scope, surveyId);
  if (!survey) {
    const error = ApiError.of('GSI_2', `Survey ${surveyId} not found.`);
    return batch.map(() => ({ error }));
  }
  const outcomes: (Outcome | CompletedResponseInput)[] = [];
  for (const item of batch) {
    try {
      outcomes.push(await item.check(trx, survey));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcomes.push({ error });
    }
  }
  const inputs = outcomes.filter((outcome): outcome is CompletedResponseInput => !isOutcome(outcome));
  const recorded = await recordManyForSurvey(trx, scope, survey, inputs);
  let next = 0;
  return outcomes.map((outcome) =>
    isOutcome(outcome) ? outcome : { recorded: recorded[next++] as RecordedResponse },
  );
}

const isOutcome = (value: Outcome | CompletedResponseInput): value is Outcome => 'error' in value;
