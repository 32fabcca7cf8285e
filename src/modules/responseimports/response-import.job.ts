import { stat } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { dialectOf } from '../../db/dialect/index.js';
import { fromJson } from '../../db/json.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
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
import { type PreparedBatch, prepareRows } from './import-batches.js';
import { type HeaderMatch, ImportHeaderError } from './import-columns.js';
import { isFileGone, readHeaderRows, UnreadableFileError } from './import-file.js';
import { matchFileHeader } from './import-header.js';
import { countPlace, openImportReader, readerPlace } from './import-thread.js';
import { ERRORS_KEPT, type ImportPayload, type ImportProgress } from './response-imports.service.js';

/**
 * Responses written per transaction (and per progress checkpoint), unless told otherwise. A transaction's
 * own statements (a dozen round trips on PostgreSQL) are spread over 500 rows: 100,000 rows imported in
 * 7.4–7.8 s against 8.8–9.0 s with 200 (issue 20).
 */
export const BATCH_ROWS = 500;

/**
 * The smallest file whose reader gets a thread of its own beside SQLite, unless told otherwise (decision
 * 0017): a thread takes about 0.2 s to start (0.5 s from the sources, through tsx), which a smaller file,
 * laid out in well under a second, never earns back. Bytes, not rows: a wider survey's rows take longer to
 * lay out and are longer.
 */
export const THREAD_FROM_BYTES = 2 * 1024 * 1024;

/**
 * Batches the job asks its reader for ahead of the one it writes, unless told otherwise (decision 0018):
 * the file is counted while the reader lays out the first ones, and the reader keeps going while a batch
 * is written. At most this many batches (and the one being written) are in hand.
 */
export const READ_AHEAD = 16;

interface ImportSettings {
  batchRows: number;
  threadFromBytes: number;
  readAhead: number;
}

/**
 * The response import job. The file is read whole once before anything is written (counting its
 * responses, so progress is honest, and so a file that cannot be read fails before anything is written);
 * meanwhile the reader reads it again, a batch at a time, and each batch's responses are recorded in one
 * transaction with its checkpoint: a restarted job resumes after the last batch that committed. Reading,
 * decoding and laying out are the reader's (import-thread.ts), which lays batches out ahead of the one
 * written (decisions 0017, 0018). A row that cannot be imported fails alone, with its reason.
 */
export function responseImportJob(deps: Deps, options: Partial<ImportSettings> = {}): JobHandler {
  const settings: ImportSettings = {
    batchRows: options.batchRows ?? BATCH_ROWS,
    threadFromBytes: options.threadFromBytes ?? THREAD_FROM_BYTES,
    readAhead: options.readAhead ?? READ_AHEAD,
  };
  return {
    // The upload is in the BlobStore (stored by whichever node took it): the readers read a local copy.
    run: (job, context) =>
      fileOrFail(() =>
        withLocalCopy(deps, (job.payload as ImportPayload).file, (path) =>
          runImport(deps, job, context, settings, path),
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
    if (isFileGone(error) || error instanceof BlobNotFoundError)
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
): Promise<{ header: HeaderMatch; doc: QsfDocument; headerRows: string[][] }> {
  const survey = await findSurveyInScope(deps.db, scope, payload.surveyId);
  if (!survey) throw new JobFailure('The survey was deleted.');
  const doc = fromJson<QsfDocument>(survey.definition);
  const headerRows = await fileOrFail(() => readHeaderRows(path, payload.format));
  const header = await fileOrFail(async () =>
    matchFileHeader(doc, headerRows, payload.format, payload.surveyId),
  );
  return { header, doc, headerRows };
}

async function runImport(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  { batchRows, threadFromBytes, readAhead }: ImportSettings,
  path: string,
): Promise<ImportProgress> {
  const payload = job.payload as ImportPayload;
  const scope = { organizationId: job.organizationId };
  const { header, doc, headerRows } = await importColumns(deps, scope, payload, path);
  // A batch is prepared on the survey as the last transaction read it (writeBatch checks it again).
  let survey = await importSurvey(deps.db, scope, payload.surveyId);
  let progress = job.result as ImportProgress;
  const { surveyId, decimalSeparator } = payload;
  // The file is read, and each batch decoded and laid out, by the import's reader: on a thread of its own
  // beside SQLite when the file is large enough, else on the event loop (decision 0017). It is counted
  // meanwhile, beside the reader (decision 0018).
  const { size } = await fileOrFail(() => stat(path));
  const place = readerPlace(dialectOf(deps.db).worksOnEventLoop, size, threadFromBytes);
  const reader = openImportReader(
    {
      path,
      format: payload.format,
      payload: { surveyId, decimalSeparator },
      scope,
      doc,
      headerRows,
      resumeAfter: progress.rowsDone,
      batchRows,
    },
    place,
    countPlace(place, size, threadFromBytes),
  );
  try {
    // The batches asked for ahead, laid out by the reader while the file is counted and while the one in
    // hand is written; they are written one after the other, in order.
    const ahead: Promise<PreparedBatch | undefined>[] = [];
    const askAhead = () => {
      const asked = reader.next(context.now(), survey);
      // Met by the loop below; a failure before (the count, the batch being written) ends the job first.
      asked.catch(() => undefined);
      ahead.push(asked);
    };
    for (let i = 0; i < readAhead; i++) askAhead();
    // Nothing is written before the whole file has been read once: a file that cannot be read fails first.
    const rowsTotal = await fileOrFail(() => reader.rowsTotal);
    if (rowsTotal === 0) throw new JobFailure('The file holds no responses after its header rows.');
    progress = { ...progress, rowsTotal };
    if (progress.rowsDone === 0) await context.checkpoint(deps.db, 0, progress);
    const next = () => {
      askAhead();
      return ahead.shift() as Promise<PreparedBatch | undefined>;
    };
    for (let batch = await fileOrFail(next); batch; batch = await fileOrFail(next)) {
      ({ progress, survey } = await writeBatch(deps, context, scope, payload, header, progress, batch));
      // A turn of the event loop between batches, so requests never wait behind a run of them (issue 19 item 8).
      await nextTurn();
    }
  } finally {
    await reader.close();
  }
  return progress;
}

/**
 * The survey an import lays its responses out on, read as recordCompletedResponse reads it (in a
 * transaction, under the recording lock), but without its definition: imported responses are recorded
 * without json export members, which an export then writes from their values (decision 0022). Writing
 * them cost a PostgreSQL import of 100,000 rows a fifth of its rate.
 */
async function importSurvey(db: Queryable, scope: Scope, surveyId: string): Promise<SurveyForResponses> {
  const survey = await surveyForResponses(db, scope, surveyId);
  if (!survey) throw new JobFailure('The survey was deleted.');
  const { definition: _, ...withoutDefinition } = survey;
  return withoutDefinition;
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
    const locked = await importSurvey(trx, scope, payload.surveyId);
    // The survey changed since the batch was laid out: laid out again, on the survey as locked.
    const rows =
      locked.version === batch.survey.version
        ? batch.rows
        : prepareRows(scope, locked, payload, header, batch.records, batch.now);
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
