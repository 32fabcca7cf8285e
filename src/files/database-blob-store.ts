import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import { dialectOf } from '../db/dialect/index.js';
import type { Database } from '../tables.js';
import {
  type BlobInfo,
  BlobNotFoundError,
  type BlobSource,
  type BlobStore,
  checkBlobKey,
} from './blob-store.js';
import { openBlobContent } from './database-blob-reader.js';

/** Chunk size of new blobs; each blob records its own, so changing this never breaks old blobs. */
export const CHUNK_SIZE = 256 * 1024;
// Chunks per INSERT: one round trip per megabyte, at most ~1 MB (plus the source's piece) in memory.
const CHUNKS_PER_INSERT = 4;

/**
 * Blobs as rows (issue 18 item 5), so API and worker nodes on different machines share files through
 * PostgreSQL alone. A save streams its chunks under a fresh content id, a few at a time and outside any
 * transaction (on SQLite a long transaction would stall every other query), then makes that content live
 * under the key in one short transaction. Replaced and removed contents stay, keyless, until
 * `removeStale`, so a reader streaming them (chunk by chunk, see database-blob-reader.ts) finishes.
 */
export function createDatabaseBlobStore(db: Kysely<Database>, clock: Clock): BlobStore {
  const now = () => clock.now().toISOString();
  return {
    save: (key, source) => saveBlob(db, now, key, source),
    open: async (key, range) => {
      checkBlobKey(key);
      const row = await findLive(db, key);
      if (!row) throw new BlobNotFoundError(key);
      return openBlobContent(db, row, range);
    },
    stat: async (key) => {
      checkBlobKey(key);
      const row = await findLive(db, key);
      return row && { key, size: row.size, createdAt: new Date(row.created_at) };
    },
    remove: async (key) => {
      checkBlobKey(key);
      await db.transaction().execute(async (trx) => {
        await lockKeys(trx, [key]);
        await retire(trx, key, now());
      });
    },
    rename: (from, to) => renameBlob(db, now, from, to),
    removeStale: async (olderThan) => {
      // Chunks go with their row (on delete cascade).
      const result = await db
        .deleteFrom('blobs')
        .where('state', 'in', ['writing', 'replaced'])
        .where('created_at', '<', olderThan.toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

async function saveBlob(
  db: Kysely<Database>,
  now: () => string,
  key: string,
  source: BlobSource,
): Promise<BlobInfo> {
  const organizationId = checkBlobKey(key);
  const id = randomBytes(16).toString('hex');
  // The row comes first, so a save that dies midway leaves a `writing` row that removeStale finds.
  await db
    .insertInto('blobs')
    .values({
      id,
      key: null,
      organization_id: organizationId,
      state: 'writing',
      size: 0,
      chunk_size: CHUNK_SIZE,
      created_at: now(),
    })
    .execute();
  try {
    const size = await writeChunks(db, id, source);
    const createdAt = now();
    await db.transaction().execute(async (trx) => {
      await lockKeys(trx, [key]);
      await retire(trx, key, createdAt);
      const made = await trx
        .updateTable('blobs')
        .set({ key, state: 'live', size, created_at: createdAt })
        .where('id', '=', id)
        .where('state', '=', 'writing')
        .executeTakeFirst();
      // removeStale took the row of a save slower than its cutoff: fail rather than make an empty blob.
      if (Number(made.numUpdatedRows) !== 1) throw new Error(`the save of ${key} was removed as stale`);
    });
    return { key, size, createdAt: new Date(createdAt) };
  } catch (error) {
    await db.deleteFrom('blobs').where('id', '=', id).where('state', '=', 'writing').execute();
    throw error;
  }
}

async function writeChunks(db: Kysely<Database>, blobId: string, source: BlobSource): Promise<number> {
  let seq = 0;
  let size = 0;
  let batch: { blob_id: string; seq: number; data: Buffer }[] = [];
  const flush = async () => {
    if (batch.length > 0) await db.insertInto('blob_chunks').values(batch).execute();
    batch = [];
  };
  for await (const data of fixedChunks(source, CHUNK_SIZE)) {
    batch.push({ blob_id: blobId, seq: seq++, data });
    size += data.length;
    if (batch.length === CHUNKS_PER_INSERT) await flush();
  }
  await flush();
  return size;
}

/** Regroups a source's pieces, whatever their sizes, into chunks of exactly `size` bytes (the last shorter). */
export async function* fixedChunks(source: BlobSource, size: number): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  for await (const piece of source as AsyncIterable<Uint8Array | string>) {
    let rest =
      typeof piece === 'string'
        ? Buffer.from(piece)
        : Buffer.from(piece.buffer, piece.byteOffset, piece.length);
    while (length + rest.length >= size) {
      const take = size - length;
      parts.push(rest.subarray(0, take));
      yield Buffer.concat(parts, size);
      parts = [];
      length = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      parts.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(parts, length);
}

async function renameBlob(db: Kysely<Database>, now: () => string, from: string, to: string): Promise<void> {
  checkBlobKey(from);
  const organizationId = checkBlobKey(to);
  await db.transaction().execute(async (trx) => {
    await lockKeys(trx, [from, to]);
    const row = await findLive(trx, from);
    if (!row) throw new BlobNotFoundError(from);
    if (from === to) return;
    await retire(trx, to, now());
    await trx
      .updateTable('blobs')
      .set({ key: to, organization_id: organizationId })
      .where('id', '=', row.id)
      .execute();
  });
}

/** Takes the live blob under `key` (if any) out of sight; its content stays until removeStale. */
async function retire(trx: Transaction<Database>, key: string, at: string): Promise<void> {
  await trx
    .updateTable('blobs')
    .set({ key: null, state: 'replaced', created_at: at })
    .where('key', '=', key)
    .execute();
}

function findLive(db: Kysely<Database>, key: string) {
  return db
    .selectFrom('blobs')
    .select(['id', 'size', 'chunk_size', 'created_at'])
    .where('key', '=', key)
    .executeTakeFirst();
}

/**
 * Serialises changes to the same keys until the transaction ends. On PostgreSQL, two saves of one key
 * would otherwise both retire the old row and then collide on the unique key; SQLite runs one write
 * transaction at a time already. Sorted, so two renames over the same pair cannot deadlock.
 */
async function lockKeys(trx: Transaction<Database>, keys: string[]): Promise<void> {
  await dialectOf(trx).lockKeys(trx, BLOB_KEY_LOCK, keys);
}

/** The advisory-lock class of blob keys (the two-number form, apart from database.ts's one-number locks). */
const BLOB_KEY_LOCK = 4_242;
