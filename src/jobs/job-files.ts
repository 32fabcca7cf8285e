import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, tighten } from '../db/private-files.js';
import type { Deps } from '../deps.js';
import type { BlobStore } from '../files/blob-store.js';
import { createBlobStore } from '../files/create-blob-store.js';

/**
 * Job files (exports, import uploads) live in the BlobStore (issue 18 item 5), so a file written on one
 * node is read on any other: with `--blob-store database`, through PostgreSQL alone. The local job files
 * directory holds only short-lived scratch copies: an upload being checked, an import being read.
 */

/** The store of `deps`; one made from its configuration when the caller built its own deps (tests, tools). */
export function jobBlobs(deps: Deps): BlobStore {
  return deps.blobs ?? createBlobStore(deps.config, deps.db, deps.clock);
}

/** `<orgId>/exports/<name>` and `<orgId>/uploads/<name>`: every job file belongs to its organisation. */
export const jobBlobKey = (organizationId: string, folder: 'exports' | 'uploads', name: string): string =>
  `${organizationId}/${folder}/${name}`;

/** An attempt's own temporary blob (`<orgId>/tmp/<jobId>-<attempt>-<uuid>`): no other attempt touches it. */
export const attemptBlobKey = (organizationId: string, jobId: string, attempt: number): string =>
  `${organizationId}/tmp/${jobId}-${attempt}-${randomUUID()}`;

/**
 * The local scratch directory: `<dataDir>/jobs`, or the system temporary directory when the database is
 * in memory. Only the server's user may enter it (0700): its copies hold organisations' data.
 */
export async function jobFilesDirectory(dataDir: string): Promise<string> {
  const dir = dataDir === ':memory:' ? join(tmpdir(), 'fieldwork-jobs') : join(dataDir, 'jobs');
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  // A directory made before (0755) is tightened too.
  tighten(dir, PRIVATE_DIRECTORY_MODE);
  return dir;
}

/** The mode of every local job file: readable by the server's user alone. */
export const JOB_FILE_MODE = PRIVATE_FILE_MODE;

/** A fresh path in the scratch directory (nothing is created yet). */
export async function scratchPath(deps: Deps, name: string): Promise<string> {
  return join(await jobFilesDirectory(deps.config.dataDir), `${name}-${randomUUID()}`);
}

/** Stores a local file under `key`. */
export async function saveLocalFile(blobs: BlobStore, key: string, path: string): Promise<void> {
  await blobs.save(key, createReadStream(path));
}

/**
 * Copies the blob into a private scratch file, runs `read` on its path (the import readers read files),
 * and deletes the copy whatever happens.
 */
export async function withLocalCopy<T>(
  deps: Deps,
  key: string,
  read: (path: string) => Promise<T>,
): Promise<T> {
  const path = await scratchPath(deps, 'copy');
  try {
    const source = await jobBlobs(deps).open(key);
    await pipeline(source, createWriteStream(path, { flags: 'wx', mode: JOB_FILE_MODE }));
    return await read(path);
  } finally {
    await rm(path, { force: true });
  }
}
