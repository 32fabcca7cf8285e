import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Database } from '../tables.js';
import type { BlobStore } from './blob-store.js';
import { createDatabaseBlobStore } from './database-blob-store.js';
import { createDirectoryBlobStore } from './directory-blob-store.js';

/** The blob store `--blob-store` names: files under the data directory (default), or the database. */
export function createBlobStore(
  config: Pick<Config, 'blobStore' | 'dataDir'>,
  db: Kysely<Database>,
  clock: Clock,
): BlobStore {
  if (config.blobStore === 'database') return createDatabaseBlobStore(db, clock);
  return createDirectoryBlobStore(blobDirectory(config.dataDir));
}

/** `<dataDir>/blobs`, or the system temporary directory when the database is in memory. */
export function blobDirectory(dataDir: string): string {
  return dataDir === ':memory:' ? join(tmpdir(), 'fieldwork-blobs') : join(dataDir, 'blobs');
}
