import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobFilesDirectory } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import { checkImportFile, type ImportFormat, MalformedImportError, saveUpload } from './import-files.js';
import { type ListRef, requireList } from './mailing-lists.service.js';

export const CONTACT_IMPORT_JOB = 'contactImport';

/** How many failed rows an import keeps with their reasons; the count of failures is always exact. */
export const FAILURES_KEPT = 1000;

export interface ImportPayload {
  directoryId: string;
  listId: string;
  file: string;
  format: ImportFormat;
  idPrefix: 'CID' | 'MLRP';
}

/** The job's checkpoint and result: rows done so far (a restarted job skips them) and the counts. */
export interface ImportProgress {
  rowsDone: number;
  added: number;
  updated: number;
  failed: number;
  failures: { row: number; reason: string }[];
}

export type ImportSource =
  | { kind: 'contacts'; contacts: unknown[] }
  | { kind: 'file'; stream: Readable; format: ImportFormat };

/**
 * Takes the file (streamed to disk), reads it through once so a malformed one is refused before anything
 * is written, then queues the job that imports it. Answers the import id (`PGRS_`).
 */
export async function startImport(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  source: ImportSource,
): Promise<string> {
  const list = await requireList(deps.db, principal, ref);
  const id = newId('PGRS');
  const dir = await jobFilesDirectory(deps.config.dataDir);
  const format = source.kind === 'contacts' ? 'json' : source.format;
  const file = join(dir, `${id}.${format}`);
  if (source.kind === 'contacts') await writeFile(file, JSON.stringify(source.contacts));
  else await saveUpload(source.stream, dir, `${id}.${format}`);
  try {
    await checkImportFile(file, format);
    const payload: ImportPayload = {
      directoryId: list.directory_id,
      listId: list.id,
      file,
      format,
      idPrefix: ref.directoryId === undefined ? 'MLRP' : 'CID',
    };
    const initialResult: ImportProgress = { rowsDone: 0, added: 0, updated: 0, failed: 0, failures: [] };
    await deps.db.transaction().execute(async (trx) => {
      await requireList(trx, principal, ref);
      await enqueueJob(
        trx,
        principal,
        { id, kind: CONTACT_IMPORT_JOB, payload, initialResult },
        deps.clock.now(),
      );
    });
  } catch (error) {
    await rm(file, { force: true });
    if (error instanceof MalformedImportError) throw ApiError.of('FW_CON_3', error.message);
    throw error;
  }
  notifyJobQueued();
  return id;
}

export async function getImport(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  importId: string,
): Promise<JobView<ImportProgress>> {
  await requireList(deps.db, principal, ref);
  const job = await getJob<ImportProgress>(deps.db, principal, CONTACT_IMPORT_JOB, importId);
  if (!job || (job.payload as ImportPayload).listId !== ref.listId)
    throw ApiError.of('FW_CON_4', `Contact import ${importId} not found.`);
  return job;
}
