import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import { BlobNotFoundError, type BlobStore, InvalidBlobKeyError } from '../../src/files/blob-store.js';
import { CHUNK_SIZE, createDatabaseBlobStore } from '../../src/files/database-blob-store.js';
import { createDirectoryBlobStore } from '../../src/files/directory-blob-store.js';
import {
  failingSource,
  freshKey,
  type MemoryGrowth,
  measuredRead,
  measuredSource,
  openBlobDatabase,
  readAll,
  sha256,
  TEST_ENGINE,
  unevenPieces,
} from './blob-helpers.js';

// The same behaviour from both backends, on both engines (the directory one ignores the engine).
let database: Db;
let closeDatabase: () => Promise<void>;
let parent: string;
let root: string;
beforeAll(async () => {
  ({ database, close: closeDatabase } = await openBlobDatabase());
  parent = await mkdtemp(join(tmpdir(), 'fieldwork-blobs-'));
  root = join(parent, 'store');
});
afterAll(async () => {
  await closeDatabase();
  await rm(parent, { recursive: true, force: true });
});

interface Backend {
  make(): BlobStore;
  /** Everything the backend holds for an organisation: files (temporary ones too), or rows and chunks. */
  storedFor(organizationId: string): Promise<string[]>;
  /** Everything it holds at all, to prove a refused key wrote nothing anywhere. */
  storedAnywhere(): Promise<string[]>;
}

const directory: Backend = {
  make: () => createDirectoryBlobStore(root),
  storedFor: (org) => listFiles(join(root, org)),
  storedAnywhere: async () => [...(await readdir(parent)), ...(await listFiles(root))],
};

const databaseRows: Backend = {
  make: () => createDatabaseBlobStore(database.db, systemClock),
  storedFor: (org) => blobRows(org),
  storedAnywhere: () => blobRows(),
};

describe.each([
  ['directory', directory],
  ['database', databaseRows],
])('%s blob store', (name, backend) => {
  it('round-trips a 5 MB random file byte for byte, whole and by ranges', async () => {
    const store = backend.make();
    const key = freshKey();
    const data = randomBytes(5 * 1024 * 1024 + 123);
    const saved = await store.save(key, unevenPieces(data));
    expect(saved.size).toBe(data.length);
    expect((await store.stat(key))?.size).toBe(data.length);
    expect(sha256(await readAll(await store.open(key)))).toBe(sha256(data));

    const ranges = [
      { start: CHUNK_SIZE - 10, end: CHUNK_SIZE + 9 }, // across a chunk boundary
      { start: 0, end: 0 },
      { start: data.length - 5 },
      { start: 3 * CHUNK_SIZE, end: 3 * CHUNK_SIZE + 2 * CHUNK_SIZE - 1 },
      { start: data.length - 3, end: data.length + 1000 }, // clipped at the end
      { start: data.length + 10 }, // past the end: nothing
    ];
    for (const range of ranges) {
      const expected = data.subarray(range.start, range.end === undefined ? undefined : range.end + 1);
      expect(sha256(await readAll(await store.open(key, range))), JSON.stringify(range)).toBe(
        sha256(expected),
      );
    }
  });

  it('streams a 50 MB save and its read back in flat memory', { timeout: 180_000 }, async () => {
    const store = backend.make();
    const key = freshKey();
    const total = 50 * 1024 * 1024;
    const { source, growth, digest } = measuredSource(total);
    expect((await store.save(key, source)).size).toBe(total);
    const saving = growth();
    const reading = await measuredRead(() => store.open(key));
    expect(reading.digest).toBe(digest());

    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const report = (of: MemoryGrowth) => `RSS ${mb(of.rss)} MB, live ${mb(of.live)} MB`;
    console.info(
      `${name} on ${TEST_ENGINE}, 50 MB: saving ${report(saving)}; reading ${report(reading.growth)}`,
    );
    // Measured: at most ~25 MB, whatever the size (PostgreSQL's pooled connections keep read buffers
    // sized for a chunk). Holding the blob would add its 50 MB.
    for (const { rss, live } of [saving, reading.growth]) {
      expect(rss).toBeLessThan(40 * 1024 * 1024);
      expect(live).toBeLessThan(40 * 1024 * 1024);
    }
  });

  it('opening a missing blob throws BlobNotFoundError; stat says there is none', async () => {
    const store = backend.make();
    const key = freshKey();
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.open(key)).rejects.toMatchObject({ code: 'BLOB_NOT_FOUND', key });
    expect(await store.stat(key)).toBeUndefined();
  });

  it('remove is idempotent, and the key can be saved again', async () => {
    const store = backend.make();
    const key = freshKey();
    await store.remove(key);
    await store.save(key, Readable.from([Buffer.from('first')]));
    await store.remove(key);
    await store.remove(key);
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.stat(key)).toBeUndefined();
    await store.save(key, Readable.from([Buffer.from('second')]));
    expect((await readAll(await store.open(key))).toString()).toBe('second');
  });

  it('rename replaces the target in one step: readers get the old blob or the new one, never a mix', async () => {
    const store = backend.make();
    const target = freshKey();
    const temporary = target.replace('exports/file.zip', 'tmp/attempt-2');
    const old = randomBytes(3 * 1024 * 1024);
    const next = randomBytes(3 * 1024 * 1024 + 7);
    await store.save(target, unevenPieces(old));
    await store.save(temporary, unevenPieces(next));

    // A download already under way when the rename lands, and others racing with it.
    const early = (await store.open(target))[Symbol.asyncIterator]();
    const started = [(await early.next()).value as Buffer];
    const racing = Array.from({ length: 4 }, async () => readAll(await store.open(target)));
    await store.rename(temporary, target);
    for (let part = await early.next(); !part.done; part = await early.next()) started.push(part.value);

    expect(sha256(Buffer.concat(started))).toBe(sha256(old));
    for (const body of await Promise.all(racing)) expect([sha256(old), sha256(next)]).toContain(sha256(body));
    expect(sha256(await readAll(await store.open(target)))).toBe(sha256(next));
    expect((await store.stat(target))?.size).toBe(next.length);
    await expect(store.open(temporary)).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('renaming a missing blob throws BlobNotFoundError and leaves the target as it was', async () => {
    const store = backend.make();
    const target = freshKey();
    await store.save(target, Readable.from([Buffer.from('kept')]));
    const missing = target.replace('exports/file.zip', 'tmp/never-written');
    await expect(store.rename(missing, target)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect((await readAll(await store.open(target))).toString()).toBe('kept');
  });

  it.each([
    '../x',
    '/etc/passwd',
    'org1/../../x',
    'org1/./x',
    'org1//x',
    'org1/.hidden',
    'org1/x/',
    'no-organisation',
    '',
    'org1/back\\slash',
    'org1/nul\0byte',
    `org1/${'a'.repeat(600)}`,
  ])('refuses the key %j in every operation and stores nothing', async (bad) => {
    const store = backend.make();
    const good = freshKey();
    await store.save(good, Readable.from([Buffer.from('fine')]));
    const before = await backend.storedAnywhere();
    const refused = [
      store.save(bad, Readable.from([Buffer.from('escape')])),
      store.open(bad),
      store.stat(bad),
      store.remove(bad),
      store.rename(bad, good),
      store.rename(good, bad),
    ];
    for (const attempt of refused) await expect(attempt).rejects.toBeInstanceOf(InvalidBlobKeyError);
    expect(await backend.storedAnywhere()).toEqual(before);
    expect(existsSync(join(parent, 'x'))).toBe(false);
    expect((await readAll(await store.open(good))).toString()).toBe('fine');
  });

  it('a source that fails midway leaves no blob and nothing half-written, and keeps the old blob', async () => {
    const store = backend.make();
    const fresh = freshKey();
    const org = fresh.split('/')[0] as string;
    await expect(store.save(fresh, failingSource(2 * 1024 * 1024))).rejects.toThrow('client went away');
    await expect(store.open(fresh)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await backend.storedFor(org)).toEqual([]);

    const existing = fresh.replace('file.zip', 'older.zip');
    const old = randomBytes(600 * 1024);
    await store.save(existing, unevenPieces(old));
    const stored = await backend.storedFor(org);
    await expect(store.save(existing, failingSource(1024 * 1024))).rejects.toThrow('client went away');
    expect(sha256(await readAll(await store.open(existing)))).toBe(sha256(old));
    expect(await backend.storedFor(org)).toEqual(stored);
  });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

async function blobRows(organizationId?: string): Promise<string[]> {
  let query = database.db
    .selectFrom('blobs')
    .leftJoin('blob_chunks', 'blob_chunks.blob_id', 'blobs.id')
    .select(['blobs.id', 'blobs.key', 'blobs.state', 'blobs.size'])
    .select((eb) => eb.fn.count<number>('blob_chunks.seq').as('chunks'))
    .groupBy(['blobs.id', 'blobs.key', 'blobs.state', 'blobs.size'])
    .orderBy('blobs.id');
  if (organizationId) query = query.where('blobs.organization_id', '=', organizationId);
  const rows = await query.execute();
  return rows.map((row) => `${row.id} ${row.state} ${row.key} ${row.size} bytes in ${row.chunks} chunks`);
}
