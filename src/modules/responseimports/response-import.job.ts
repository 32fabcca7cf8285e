import { setImmediate as nextTurn } from 'node:timers/promises';
import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { jobBlobs, withLocalCopy } from '../../jobs/job-files.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import {
  type PreparedResponse,
  prepareResponses,
  responseIdsInUse,
  writePreparedResponses,
} from '../responses/record-response.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { type SurveyForResponses, surveyForResponses } from '../surveys/survey-responses.service.js';
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

/**
 * Responses written per transaction (and per progress checkpoint), unless told otherwise. A transaction's
 * own statements (a dozen round trips on PostgreSQL) are spread over 500 rows: 100,000 rows imported in
 * 7.4–7.8 s against 8.8–9.0 s with 200 (issue 20).
 */
export const BATCH_ROWS = 500;

/**
 * The response import job. It reads the whole file once first (counting its responses, so progress is
 * honest, and so a file that cannot be read fails before anything is written), then streams it again
 * and records a batch of responses per transaction with its checkpoint: a restarted job resumes after
 * the last batch that committed. While a batch is written the next is prepared (decoded, laid out), so
 * on PostgreSQL our work and the database's overlap. A row that cannot be imported fails alone, with its
 * reason.
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
  const resumeAfter = progress.rowsDone;
  // A batch is prepared on the survey as the last transaction read it (writeBatch checks it again).
  const first = await surveyForResponses(deps.db, scope, payload.surveyId);
  if (!first) throw new JobFailure('The survey was deleted.');
  let survey = first;
  // Two batches at most are in hand: the one being written and the next, prepared meanwhile (decoded and
  // laid out while the database works on the first). They are written one after the other, in order.
  let writing: Promise<void> = Promise.resolve();
  let batch: ImportRecord[] = [];
  const flush = async () => {
    const prepared = await prepareBatch(scope, survey, payload, header, batch, context.now(), true);
    batch = [];
    await writing;
    writing = writeBatch(deps, context, scope, payload, header, progress, prepared).then((written) => {
      ({ progress, survey } = written);
    });
    // Its failure is met by the next flush, or at the end.
    writing.catch(() => undefined);
    // A turn of the event loop between batches, so requests never wait behind a run of them (issue 19 item 8).
    await nextTurn();
  };
  try {
    for await (const record of readImportRecords(path, payload.format)) {
      if (record.row <= resumeAfter) continue;
      batch.push(record);
      if (batch.length >= batchRows) await flush();
    }
    if (batch.length > 0) await flush();
    await writing;
  } finally {
    // A batch being written when reading the file fails is let finish (or fail) before the job ends.
    await writing.catch(() => undefined);
  }
  return progress;
}

/** Rows prepared per turn of the event loop, so the batch being written meanwhile goes on between them. */
const PREPARE_SLICE = 5;

/** One row of a prepared batch: its reason to fail, or the response laid out for it. */
type PreparedRow =
  | { row: number; reason: string }
  | { row: number; fileId?: string; response: PreparedResponse };

interface PreparedBatch {
  /** The survey the batch was laid out on. */
  survey: SurveyForResponses;
  /** The file's records, kept to prepare them again should the survey change before they are written. */
  records: readonly ImportRecord[];
  rows: PreparedRow[];
  /** When the batch is recorded: one instant for the whole batch. */
  now: Date;
}

/**
 * A batch decoded and laid out on `survey` (prepareResponses): nothing is read or written. A response
 * keeps the file's id for now; writeBatch, which sees which ids are in use, decides. `sliced`: a turn of
 * the event loop every PREPARE_SLICE rows.
 */
async function prepareBatch(
  scope: Scope,
  survey: SurveyForResponses,
  payload: ImportPayload,
  header: HeaderMatch,
  records: readonly ImportRecord[],
  now: Date,
  sliced: boolean,
): Promise<PreparedBatch> {
  const rows: PreparedRow[] = [];
  for (const [i, { row, cells }] of records.entries()) {
    if (sliced && i > 0 && i % PREPARE_SLICE === 0) await nextTurn();
    const decoded = decodeRow(survey, header.columns, header.width, cells, payload);
    if ('reason' in decoded) {
      rows.push({ row, reason: decoded.reason });
      continue;
    }
    // The decoded row is this batch's own: completed in place, not copied.
    const fileId = decoded.responseId;
    const input = Object.assign(decoded.input, fileId ? { responseId: fileId } : {}, {
      surveyId: payload.surveyId,
      now,
      emitEvent: false,
    });
    const [response] = prepareResponses(scope, survey, [input]);
    rows.push({ row, fileId, response: response as PreparedResponse });
  }
  return { survey, records, rows, now };
}

/**
 * Records one prepared batch in one transaction with its checkpoint; answers the progress after it and the
 * survey as the transaction read it.
 */
async function writeBatch(
  deps: Deps,
  context: JobContext,
  scope: Scope,
  payload: ImportPayload,
  header: HeaderMatch,
  progress: ImportProgress,
  batch: PreparedBatch,
): Promise<{ progress: ImportProgress; survey: SurveyForResponses }> {
  const next: ImportProgress = { ...progress, errors: [...progress.errors] };
  const fail = (row: number, message: string) => {
    next.failed++;
    if (next.errors.length < ERRORS_KEPT) next.errors.push({ row, message });
  };
  const survey = await deps.db.transaction().execute(async (trx) => {
    const locked = await surveyForResponses(trx, scope, payload.surveyId);
    if (!locked) throw new JobFailure('The survey was deleted.');
    // The survey changed since the batch was laid out: laid out again, on the survey as locked.
    const { rows } =
      locked.version === batch.survey.version
        ? batch
        : await prepareBatch(scope, locked, payload, header, batch.records, batch.now, false);
    const ids = rows.flatMap((r) => ('fileId' in r && r.fileId ? [r.fileId] : []));
    const inUse = await responseIdsInUse(trx, scope, payload.surveyId, ids);
    const seen = new Set<string>();
    const accepted: PreparedResponse[] = [];
    for (const prepared of rows) {
      if ('reason' in prepared) {
        fail(prepared.row, prepared.reason);
        continue;
      }
      const { row, fileId: id, response } = prepared;
      if (id !== undefined && (inUse.get(id) === 'survey' || seen.has(id))) {
        fail(row, `Response ${id} already exists in the survey; it was left as it is.`);
        continue;
      }
      if (id !== undefined) seen.add(id);
      // An id another survey (or organisation) holds: the response is laid out again under a new one.
      const fresh =
        id !== undefined && inUse.has(id)
          ? prepareResponses(scope, locked, [{ ...response.input, responseId: undefined }])[0]
          : response;
      accepted.push(fresh as PreparedResponse);
    }
    // The batch's responses in a statement per step, with the rules of one (record-response.ts).
    await writePreparedResponses(trx, scope, locked, accepted);
    next.added += accepted.length;
    next.rowsDone = batch.records.at(-1)?.row ?? next.rowsDone;
    const percent = Math.min(99, Math.floor((100 * next.rowsDone) / Math.max(next.rowsTotal, 1)));
    await context.checkpoint(trx, percent, next);
    return locked;
  });
  return { progress: next, survey };
}
