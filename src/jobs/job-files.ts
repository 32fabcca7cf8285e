import type { WriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PRIVATE_DIRECTORY_MODE, PRIVATE_FILE_MODE, tighten } from '../db/private-files.js';

/**
 * Where jobs keep their input and output files: `<dataDir>/jobs`, or the system temporary directory
 * when the database is in memory. Several nodes must share it (a shared volume) when workers run apart
 * from the API (DESIGN.md "Processes and scale"). Only the server's user may enter it (0700).
 */
export async function jobFilesDirectory(dataDir: string): Promise<string> {
  const dir = dataDir === ':memory:' ? join(tmpdir(), 'fieldwork-jobs') : join(dataDir, 'jobs');
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  // A directory made before (0755) is tightened too: it holds every organisation's exports and uploads.
  tighten(dir, PRIVATE_DIRECTORY_MODE);
  return dir;
}

/** The mode of every job file (exports, uploads): readable by the server's user alone. */
export const JOB_FILE_MODE = PRIVATE_FILE_MODE;

/**
 * Creates (or empties) a job file, 0600, and answers a stream into it. The file is opened before the
 * stream exists, so a path that cannot be written (a directory missing on this node) fails here, as a
 * rejected promise, rather than as an 'error' event once bytes flow.
 */
export async function openJobFileForWriting(path: string): Promise<WriteStream> {
  const handle = await open(path, 'w', JOB_FILE_MODE);
  try {
    // An existing file (a retried job's) keeps its old mode through open(): set it.
    await handle.chmod(JOB_FILE_MODE);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle.createWriteStream();
}
