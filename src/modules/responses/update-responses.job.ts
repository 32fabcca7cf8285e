import { setImmediate as nextTurn } from 'node:timers/promises';
import { isoSeconds } from '../../clock.js';
import { fromJson, toJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { jobBlobs } from '../../jobs/job-files.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import { evaluateLogic, type Logic } from '../surveys/definition/logic.js';
import { recordedFacts } from '../surveys/definition/recorded-facts.js';
import {
  countTowardsQuotas,
  type SurveyForResponses,
  surveyForResponses,
} from '../surveys/survey-responses.service.js';
import * as store from './responses.store.js';
import {
  type EmbeddedDataUpdate,
  ERRORS_KEPT,
  readUpdates,
  type UpdatePayload,
  type UpdateProgress,
} from './update-responses.service.js';

/** Updates applied per transaction (and per progress checkpoint), unless told otherwise. */
const BATCH_UPDATES = 500;

type Values = Record<string, unknown>;

/**
 * The bulk update job (`POST /v3/surveys/{surveyId}/update-responses`). It applies the stored updates in
 * order, a batch per transaction with its checkpoint: percentComplete is the share of updates committed,
 * and a restarted job resumes after the last batch that committed. A response the survey does not have
 * fails that update alone (or is skipped, with `ignoreMissingResponses`).
 */
export function responseUpdateJob(deps: Deps, options: { batchUpdates?: number } = {}): JobHandler {
  const batchUpdates = options.batchUpdates ?? BATCH_UPDATES;
  return {
    run: async (job, context) => {
      const payload = job.payload as UpdatePayload;
      const updates = await readUpdates(deps, payload.file).catch((error: unknown) => {
        if (error instanceof BlobNotFoundError) throw new JobFailure('The stored updates are gone.');
        throw error;
      });
      let progress = job.result as UpdateProgress;
      while (progress.done < updates.length) {
        const batch = updates.slice(progress.done, progress.done + batchUpdates);
        progress = await applyBatch(deps, job, context, progress, batch);
        // A turn of the event loop between batches, so requests never wait behind a run of them.
        await nextTurn();
      }
      return progress;
    },
    finished: async (job) => {
      await jobBlobs(deps).remove((job.payload as UpdatePayload).file);
    },
  };
}

async function applyBatch(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  progress: UpdateProgress,
  batch: readonly EmbeddedDataUpdate[],
): Promise<UpdateProgress> {
  const payload = job.payload as UpdatePayload;
  const scope = { organizationId: job.organizationId };
  const next: UpdateProgress = { ...progress, errors: [...progress.errors] };
  await deps.db.transaction().execute(async (trx) => {
    const survey = await surveyForResponses(trx, scope, payload.surveyId);
    if (!survey) throw new JobFailure('The survey was deleted.');
    const ids = [...new Set(batch.map((u) => u.responseId))];
    const rows = await store.listSurveyResponsesByIds(trx, scope, payload.surveyId, ids);
    const current = new Map(rows.map((row) => [row.id, parsed(row)]));
    const changed = new Set<string>();
    for (const update of batch) {
      const response = current.get(update.responseId);
      if (response) {
        applyUpdate(response, update);
        changed.add(update.responseId);
        next.updated++;
      } else if (payload.ignoreMissingResponses) {
        next.skipped++;
      } else {
        next.failed++;
        if (next.errors.length < ERRORS_KEPT)
          next.errors.push({
            responseId: update.responseId,
            reason: `Response ${update.responseId} is not a response of survey ${payload.surveyId}.`,
          });
      }
    }
    const written = [...changed].map((id) => ({ id, ...(current.get(id) as ParsedResponse) }));
    for (const response of written) await moveQuotaCounts(trx, scope, survey, response);
    const rowsOut = written.map(({ id, values, embedded }) => ({
      id,
      values: toJson(values),
      embedded_data: toJson(embedded),
    }));
    await store.updateEmbeddedData(trx, scope, rowsOut, isoSeconds(context.now()));
    next.done = progress.done + batch.length;
    await context.checkpoint(trx, Math.min(99, Math.floor((100 * next.done) / next.total)), next);
  });
  return next;
}

interface ParsedResponse {
  before: Values;
  values: Values;
  embedded: Record<string, string>;
}

function parsed(row: store.EmbeddedDataRow): ParsedResponse {
  const values = fromJson<Values>(row.values);
  return { before: values, values: { ...values }, embedded: fromJson(row.embedded_data) };
}

/** Embedded data lives in the response's values (as exports read them) and in its own column. */
function applyUpdate(response: ParsedResponse, update: EmbeddedDataUpdate): void {
  for (const [name, value] of Object.entries(update.embeddedData)) {
    if (value === null) {
      delete response.values[name];
      delete response.embedded[name];
    } else {
      response.values[name] = value;
      response.embedded[name] = value;
    }
  }
}

/** A quota whose condition names embedded data may stop or start counting the response. */
async function moveQuotaCounts(
  db: Queryable,
  scope: Scope,
  survey: SurveyForResponses,
  response: ParsedResponse,
): Promise<void> {
  if (survey.quotas.length === 0) return;
  const met = (values: Values) => {
    const facts = recordedFacts(values, survey.questions, survey.questionKeys);
    return survey.quotas.map((q) => evaluateLogic(q.condition as Logic, facts)).join();
  };
  if (met(response.before) === met(response.values)) return;
  await countTowardsQuotas(db, scope, survey, [response.before], -1);
  await countTowardsQuotas(db, scope, survey, [response.values], 1);
}
