import { stat } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isoSeconds } from '../../clock.js';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { jobBlobs, withLocalCopy } from '../../jobs/job-files.js';
import { type JobContext, JobFailure, type JobHandler, type RunningJob } from '../../jobs/job-runner.js';
import type { ContactInput } from './contact-fields.js';
import { FAILURES_KEPT, type ImportPayload, type ImportProgress } from './contact-imports.service.js';
import { upsertContacts } from './contact-upsert.js';
import { BATCH_ROWS } from './contacts.store.js';
import { type ImportRecord, MalformedImportError, readImportRecords } from './import-files.js';
import { toContactInput } from './import-rows.js';
import { findList } from './mailing-lists.store.js';

/**
 * The contact import job: reads the file as a stream and writes it a batch at a time, each batch in one
 * transaction with its checkpoint, so a restarted job resumes after the last batch that committed. A row
 * that breaks a rule fails alone, with its reason; only a file that cannot be read fails the job.
 */
export function contactImportJob(deps: Deps): JobHandler {
  return {
    run: (job, context) => withUpload(deps, job, (path) => runImport(deps, job, context, path)),
    finished: async (job) => {
      await jobBlobs(deps).remove((job.payload as ImportPayload).file);
    },
  };
}

/** Runs `read` on a local copy of the upload (stored in the BlobStore by whichever node took it). */
async function withUpload<T>(deps: Deps, job: RunningJob, read: (path: string) => Promise<T>): Promise<T> {
  try {
    return await withLocalCopy(deps, (job.payload as ImportPayload).file, read);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new JobFailure('The import file is gone; upload it again.');
    throw error;
  }
}

async function runImport(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  path: string,
): Promise<ImportProgress> {
  const payload = job.payload as ImportPayload;
  let progress = job.result as ImportProgress;
  const size = (await stat(path).catch(() => undefined))?.size;
  if (size === undefined) throw new JobFailure('The import file is gone; upload it again.');
  let bytesRead = 0;
  let batch: ImportRecord[] = [];
  const flush = async () => {
    const percent = Math.min(99, Math.floor((100 * bytesRead) / Math.max(size, 1)));
    progress = await writeBatch(deps, job, context, payload, progress, batch, percent);
    batch = [];
    // Parsing and (on SQLite) writing never wait for I/O: without a turn of the event loop between
    // batches, requests would wait for a whole chunk of the file (issue 19 item 8).
    await nextTurn();
  };
  try {
    for await (const record of readImportRecords(path, payload.format, (n) => (bytesRead = n))) {
      if (record.row <= progress.rowsDone) continue;
      batch.push(record);
      if (batch.length >= BATCH_ROWS) await flush();
    }
  } catch (error) {
    // The file was read through when it was uploaded; one that no longer reads is named, not retried.
    if (error instanceof MalformedImportError)
      throw new JobFailure(`The file cannot be imported: ${error.message}`);
    throw error;
  }
  if (batch.length > 0) await flush();
  return progress;
}

async function writeBatch(
  deps: Deps,
  job: RunningJob,
  context: JobContext,
  payload: ImportPayload,
  progress: ImportProgress,
  records: ImportRecord[],
  percent: number,
): Promise<ImportProgress> {
  const scope = { organizationId: job.organizationId };
  const next: ImportProgress = { ...progress, failures: [...progress.failures] };
  const fail = (row: number, reason: string) => {
    next.failed++;
    if (next.failures.length < FAILURES_KEPT) next.failures.push({ row, reason });
  };
  const valid: { row: number; input: ContactInput }[] = [];
  for (const record of records) {
    const outcome = toContactInput(record);
    if ('reason' in outcome) fail(record.row, outcome.reason);
    else valid.push({ row: record.row, input: outcome.input });
  }
  await deps.db.transaction().execute(async (trx) => {
    if (!(await findList(trx, scope, payload.listId)))
      throw new JobFailure(`The mailing list ${payload.listId} was deleted; nothing more was imported.`);
    const target = {
      scope,
      directoryId: payload.directoryId,
      listId: payload.listId,
      at: isoSeconds(context.now()),
      idPrefix: payload.idPrefix,
    };
    const outcome = await upsertContacts(
      trx,
      target,
      valid.map((v) => v.input),
    );
    outcome.results.forEach((result, index) => {
      if ('reason' in result) fail(valid[index]?.row ?? 0, result.reason);
    });
    next.added += outcome.added;
    next.updated += outcome.updated;
    next.rowsDone = records.at(-1)?.row ?? next.rowsDone;
    await context.checkpoint(trx, percent, next);
  });
  return next;
}
