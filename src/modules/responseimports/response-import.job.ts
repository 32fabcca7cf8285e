import { setImmediate as nextTurn } from 'node:timers/promises';
import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { jobBlobs, withLocalCopy } from '../../jobs/job-files.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import {
  type CompletedResponseInput,
  recordManyForSurvey,
  responseIdsInUse,
} from '../responses/record-response.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { surveyForResponses } from '../surveys/survey-responses.service.js';
import { findSurveyInScope } from '../surveys/surveys.service.js';
import { decodeRow } from './import-cells.js';
import { type HeaderMatch, ImportHeaderError } from './import-columns.js';
import {
  countImportRecords,
  type ImportRecord,
  readHeaderRows,
  readImportRecords,
  UnreadableFileError,
} from './import-file.js';
import { matchFileHeader } from './import-header.js';
import { ERRORS_KEPT, type ImportPayload, type ImportProgress } from './response-imports.service.js';

/** Responses written per transaction (and per progress checkpoint), unless told otherwise. */
export const BATCH_ROWS = 200;

/**
 * The response import job. It reads the whole file once first (counting its responses, so progress is
 * honest, and so a file that cannot be read fails before anything is written), then streams it again
 * and records a batch of responses per transaction with its checkpoint: a restarted job resumes after
 * the last batch that committed. A row that cannot be imported fails alone, with its reason.
 */
export function responseImportJob(deps: Deps, options: { batchRows?: number } = {}): JobHandler {
  const batchRows = options.batchRows ?? BATCH_ROWS;
  return {
    // The upload is in the BlobStore (stored by whichever node took it): the readers read a local copy.
    run: (job, context) =>
      fileOrFail(() =>
        withLocalCopy(deps, (job.payload as ImportPayload).file, (path) =>
          runImport(deps, job, context, batchRows, path),
        ),
      ),
    finished: async (job) => {
      await jobBlobs(deps).remove((job.payload as ImportPayload).file);
    },
  };
}

async function fileOrFail<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof UnreadableFileError || error instanceof ImportHeaderError)
      throw new JobFailure(error.message);
    if ((error as { code?: string }).code === 'ENOENT' || error instanceof BlobNotFoundError)
      throw new JobFailure('The import file is gone; upload it again.');
    throw error;
  }
}

/** The file's columns matched to the survey's export layout (checked when the import was started). */
async function importColumns(
  deps: Deps,
  scope: Scope,
  payload: ImportPayload,
  path: string,
): Promise<HeaderMatch> {
  const survey = await findSurveyInScope(deps.db, scope, payload.surveyId);
  if (!survey) throw new JobFailure('The survey was deleted.');
  const doc = fromJson<QsfDocument>(survey.definition);
  const rows = await fileOrFail(() => readHeaderRows(path, payload.format));
  return fileOrFail(async () => matchFileHeader(doc, rows, payload.format, payload.surveyId));
}

async function runImport(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  batchRows: number,
  path: string,
): Promise<ImportProgress> {
  const payload = job.payload as ImportPayload;
  const scope = { organizationId: job.organizationId };
  const header = await importColumns(deps, scope, payload, path);
  const rowsTotal = await fileOrFail(() => countImportRecords(path, payload.format));
  if (rowsTotal === 0) throw new JobFailure('The file holds no responses after its header rows.');
  let progress: ImportProgress = { ...(job.result as ImportProgress), rowsTotal };
  if (progress.rowsDone === 0) await context.checkpoint(deps.db, 0, progress);
  let batch: ImportRecord[] = [];
  const flush = async () => {
    progress = await writeBatch(deps, context, scope, payload, header, progress, batch);
    batch = [];
    // A turn of the event loop between batches, so requests never wait behind a run of them (issue 19 item 8).
    await nextTurn();
  };
  for await (const record of readImportRecords(path, payload.format)) {
    if (record.row <= progress.rowsDone) continue;
    batch.push(record);
    if (batch.length >= batchRows) await flush();
  }
  if (batch.length > 0) await flush();
  return progress;
}

/** Records one batch in one transaction with its checkpoint; answers the progress after it. */
async function writeBatch(
  deps: Deps,
  context: JobContext,
  scope: Scope,
  payload: ImportPayload,
  header: HeaderMatch,
  progress: ImportProgress,
  records: readonly ImportRecord[],
): Promise<ImportProgress> {
  const next: ImportProgress = { ...progress, errors: [...progress.errors] };
  const fail = (row: number, message: string) => {
    next.failed++;
    if (next.errors.length < ERRORS_KEPT) next.errors.push({ row, message });
  };
  await deps.db.transaction().execute(async (trx) => {
    const survey = await surveyForResponses(trx, scope, payload.surveyId);
    if (!survey) throw new JobFailure('The survey was deleted.');
    const rows = records.map((r) => ({
      row: r.row,
      decoded: decodeRow(survey, header.columns, header.width, r.cells, payload),
    }));
    const ids = rows.flatMap(({ decoded }) =>
      'responseId' in decoded && decoded.responseId ? [decoded.responseId] : [],
    );
    const inUse = await responseIdsInUse(trx, scope, payload.surveyId, ids);
    const seen = new Set<string>();
    const accepted: CompletedResponseInput[] = [];
    // The batch is recorded in one transaction, at one instant.
    const now = context.now();
    for (const { row, decoded } of rows) {
      if ('reason' in decoded) {
        fail(row, decoded.reason);
        continue;
      }
      const id = decoded.responseId;
      if (id !== undefined && (inUse.get(id) === 'survey' || seen.has(id))) {
        fail(row, `Response ${id} already exists in the survey; it was left as it is.`);
        continue;
      }
      if (id !== undefined) seen.add(id);
      const keep = id !== undefined && !inUse.has(id) ? { responseId: id } : {};
      // The decoded row is this batch's own: completed in place, not copied.
      accepted.push(
        Object.assign(decoded.input, keep, { surveyId: payload.surveyId, now, emitEvent: false }),
      );
    }
    // The batch's responses in a statement per step, with the rules of one (record-response.ts).
    await recordManyForSurvey(trx, scope, survey, accepted);
    next.added += accepted.length;
    next.rowsDone = records.at(-1)?.row ?? next.rowsDone;
    const percent = Math.min(99, Math.floor((100 * next.rowsDone) / Math.max(next.rowsTotal, 1)));
    await context.checkpoint(trx, percent, next);
  });
  return next;
}
