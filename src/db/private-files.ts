import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The database and the job files hold every organisation's data: only the user the server runs as may
 * read them (issue 19). Files are made 0600 and directories 0700, whatever the umask.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;

/**
 * The SQLite file of a data directory, made 0600 before SQLite opens it: SQLite gives the `-wal` and
 * `-shm` files it creates the database file's mode, so they follow. A database made before this (0644)
 * is tightened, its journal files too.
 */
export function privateSqliteFile(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const file = join(dataDir, 'fieldwork.db');
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tighten(path, PRIVATE_FILE_MODE);
  return file;
}

/** Takes group and other permissions away; a file that is absent, or not ours to change, is left. */
export function tighten(path: string, mode: number): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}
