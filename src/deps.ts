import type { Kysely } from 'kysely';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { BlobStore } from './files/blob-store.js';
import type { Database } from './tables.js';

/** What services need from the outside world, handed down from app.ts. */
export interface Deps {
  db: Kysely<Database>;
  clock: Clock;
  config: Config;
  /** Job files, exports and uploads (app.ts makes one); absent, jobs/job-files.ts makes one from `config`. */
  blobs?: BlobStore;
}

/** A store works on the database or on an open transaction alike. */
export type Queryable = Kysely<Database>;
