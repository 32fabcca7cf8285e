import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Readable } from 'node:stream';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { JOB_FILE_MODE, jobBlobKey, jobBlobs, saveLocalFile, scratchPath } from '../../jobs/job-files.js';
import { enqueueJob, getJob, type JobView, notifyJobQueued } from '../../jobs/jobs.service.js';
import {
  checkImportFile,
  checkJsonContact,
  type ImportFormat,
  MalformedImportError,
} from './import-files.js';
import { saveUpload, type UploadLimit } from './import-uploads.js';
import { type ListRef, requireList } from './mailing-lists.service.js';

export const CONTACT_IMPORT_JOB = 'contactImport';

/** How many failed rows an import keeps with their reasons; the count of failures is always exact. */
export const FAILURES_KEPT = 1000;

export interface ImportPayload {
  directoryId: string;
  listId: string;
  /** The upload's BlobStore key (`<orgId>/uploads/<id>.<format>`); removed when the job ends. */
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
  | { kind: 'file'; stream: Readable; format: ImportFormat; limit: UploadLimit };

/**
 * Takes the file (streamed to a local scratch file), reads it through once so a malformed one is refused
 * before anything is written, stores it in the BlobStore (where the job reads it, on whichever node),
 * then queues the job that imports it. Answers the import id (`PGRS_`).
 */
export async function startImport(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  source: ImportSource,
): Promise<string> {
  const list = await requireList(deps.db, principal, ref);
  const id = newId('PGRS');
  const format = source.kind === 'contacts' ? 'json' : source.format;
  const local = await scratchPath(deps, `${id}.${format}`);
  const key = jobBlobKey(principal.organizationId, 'uploads', `${id}.${format}`);
  const blobs = jobBlobs(deps);
  try {
    if (source.kind === 'file')
      await saveUpload(source.stream, dirname(local), basename(local), source.limit);
    else await writeContacts(local, source.contacts);
    await checkImportFile(local, format);
    await saveLocalFile(blobs, key, local);
    const payload: ImportPayload = {
      directoryId: list.directory_id,
      listId: list.id,
      file: key,
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
    await blobs.remove(key);
    if (error instanceof MalformedImportError) throw ApiError.of('FW_CON_3', error.message);
    throw error;
  } finally {
    await rm(local, { force: true });
  }
  notifyJobQueued();
  return id;
}

/** A JSON body's contacts as a file, each checked first: JSON.stringify must never meet a 5,000-deep array. */
async function writeContacts(file: string, contacts: unknown[]): Promise<void> {
  for (const [index, contact] of contacts.entries()) checkJsonContact(contact, index + 1);
  await writeFile(file, JSON.stringify(contacts), { mode: JOB_FILE_MODE });
}

/**
 * The import of that list. An import stays readable after its list was deleted, so the caller can read
 * why it failed (docs/contacts.md); an unknown list with no such import is 404 PACC_6 as before.
 */
export async function getImport(
  deps: Deps,
  principal: Principal,
  ref: ListRef,
  importId: string,
): Promise<JobView<ImportProgress>> {
  const job = await getJob<ImportProgress>(deps.db, principal, CONTACT_IMPORT_JOB, importId);
  const payload = job?.payload as ImportPayload | undefined;
  const ofList =
    payload?.listId === ref.listId &&
    (ref.directoryId === undefined || payload.directoryId === ref.directoryId);
  if (job && ofList) return job;
  await requireList(deps.db, principal, ref);
  throw ApiError.of('FW_CON_4', `Contact import ${importId} not found.`);
}
