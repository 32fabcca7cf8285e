import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, systemClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import { BlobNotFoundError } from '../../src/files/blob-store.js';
import { blobDirectory, createBlobStore } from '../../src/files/create-blob-store.js';
import { CHUNK_SIZE, createDatabaseBlobStore } from '../../src/files/database-blob-store.js';
import { createDirectoryBlobStore } from '../../src/files/directory-blob-store.js';
import { freshKey, openBlobDatabase, readAll, sha256, unevenPieces } from './blob-helpers.js';

// What only one backend does: file modes and temporary files on disk; leftovers and locking in the database.
let database: Db;
let closeDatabase: () => Promise<void>;
let root: string;
beforeAll(async () => {
  ({ database, close: closeDatabase } = await openBlobDatabase());
  root = await mkdtemp(join(tmpdir(), 'fieldwork-blobs-'));
});
afterAll(async () => {
  await closeDatabase();
  await rm(root, { recursive: true, force: true });
});

const orgOf = (key: string) => key.split('/')[0] as string;
const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('directory blob store', () => {
  it('keeps blobs private: files 0600, directories 0700, after a save and after a rename', async () => {
    const store = createDirectoryBlobStore(join(root, 'private'));
    const key = freshKey('exports/a.zip');
    await store.save(key, Readable.from([Buffer.from('respondent data')]));
    const renamed = key.replace('exports/a.zip', 'archive/2026/a.zip');
    await store.rename(key, renamed);
    await store.save(key, Readable.from([Buffer.from('again')]));

    expect(await modeOf(join(root, 'private'))).toBe(0o700);
    expect(await modeOf(join(root, 'private', orgOf(key)))).toBe(0o700);
    expect(await modeOf(join(root, 'private', orgOf(key), 'exports'))).toBe(0o700);
    expect(await modeOf(join(root, 'private', orgOf(key), 'archive', '2026'))).toBe(0o700);
    expect(await modeOf(join(root, 'private', key))).toBe(0o600);
    expect(await modeOf(join(root, 'private', renamed))).toBe(0o600);
  });

  it('removeStale deletes temporary files older than the cutoff, and nothing else', async () => {
    const store = createDirectoryBlobStore(join(root, 'stale'));
    const key = freshKey();
    await store.save(key, Readable.from([Buffer.from('live')]));
    const dir = join(root, 'stale', orgOf(key), 'exports');
    const [old, recent] = [join(dir, '.0123456789abcdef.tmp'), join(dir, '.fedcba9876543210.tmp')];
    await writeFile(old, 'crashed save');
    await writeFile(recent, 'save in progress');
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await utimes(old, twoHoursAgo, twoHoursAgo);

    expect(await store.removeStale(new Date(Date.now() - 3_600_000))).toBe(1);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
    expect((await readAll(await store.open(key))).toString()).toBe('live');
  });
});

describe('database blob store', () => {
  const chunkRows = async (org: string) =>
    database.db
      .selectFrom('blob_chunks')
      .innerJoin('blobs', 'blobs.id', 'blob_chunks.blob_id')
      .select(['blobs.state', 'blob_chunks.seq'])
      .where('blobs.organization_id', '=', org)
      .execute();

  it('keeps a replaced content for readers until removeStale, then deletes it; live blobs stay', async () => {
    // Long ago, so rows that other tests stamp with the real time are never older than these cutoffs.
    const clock = manualClock('2000-01-01T00:00:00Z');
    const store = createDatabaseBlobStore(database.db, clock);
    const key = freshKey();
    const old = randomBytes(3 * CHUNK_SIZE + 5);
    await store.save(key, unevenPieces(old));
    const reader = (await store.open(key))[Symbol.asyncIterator]();
    const first = (await reader.next()).value as Buffer;
    await store.save(key, Readable.from([Buffer.from('new')]));

    clock.advance(60_000);
    expect(await store.removeStale(new Date('2000-01-01T00:00:00Z'))).toBe(0);
    // The replaced content outlived the save that replaced it: the reader still gets all of it.
    const second = (await reader.next()).value as Buffer;
    expect(sha256(Buffer.concat([first, second]))).toBe(
      sha256(old.subarray(0, first.length + second.length)),
    );

    expect(await store.removeStale(new Date('2000-01-01T00:00:30Z'))).toBe(1);
    // Once deleted, a reader still streaming it fails instead of ending short.
    const drain = async () => {
      for (let part = await reader.next(); !part.done; part = await reader.next());
    };
    await expect(drain()).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await chunkRows(orgOf(key))).toEqual([{ state: 'live', seq: 0 }]);
    expect((await readAll(await store.open(key))).toString()).toBe('new');
  });

  it('a save whose row removeStale took fails, and leaves no blob and no chunks', async () => {
    const store = createDatabaseBlobStore(database.db, systemClock);
    const key = freshKey();
    let blocked!: () => void;
    const waiting = new Promise<void>((resolve) => {
      blocked = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* stalledUpload() {
      yield randomBytes(5 * CHUNK_SIZE);
      blocked(); // the first chunks are stored once the save asks for more
      await released;
      yield randomBytes(CHUNK_SIZE);
    }
    const saving = store.save(key, stalledUpload());
    await waiting;
    expect((await chunkRows(orgOf(key))).length).toBeGreaterThan(0);
    expect(await store.removeStale(new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(1);
    release();
    await expect(saving).rejects.toThrow();
    await expect(store.open(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await chunkRows(orgOf(key))).toEqual([]);
  });

  it('concurrent saves of one key all succeed, and one of them is the blob', async () => {
    const store = createDatabaseBlobStore(database.db, systemClock);
    const key = freshKey();
    const bodies = Array.from({ length: 6 }, () => randomBytes(CHUNK_SIZE + 100));
    await Promise.all(bodies.map((body) => store.save(key, unevenPieces(body))));
    const stored = sha256(await readAll(await store.open(key)));
    expect(bodies.map(sha256)).toContain(stored);
    const rows = await database.db
      .selectFrom('blobs')
      .select(['state'])
      .where('organization_id', '=', orgOf(key))
      .execute();
    expect(rows.filter((row) => row.state === 'live')).toHaveLength(1);
    expect(rows.filter((row) => row.state === 'replaced')).toHaveLength(5);
  });
});

describe('createBlobStore', () => {
  it('--blob-store directory keeps files under <data>/blobs; database keeps them out of the file system', async () => {
    const dataDir = await mkdtemp(join(root, 'data-'));
    const key = freshKey();
    const onDisk = createBlobStore({ blobStore: 'directory', dataDir }, database.db, systemClock);
    await onDisk.save(key, Readable.from([Buffer.from('on disk')]));
    expect(existsSync(join(dataDir, 'blobs', key))).toBe(true);

    const otherDir = await mkdtemp(join(root, 'data-'));
    const inDatabase = createBlobStore(
      { blobStore: 'database', dataDir: otherDir },
      database.db,
      systemClock,
    );
    await inDatabase.save(key, Readable.from([Buffer.from('in rows')]));
    expect(existsSync(join(otherDir, 'blobs'))).toBe(false);
    expect(await chunkCount(orgOf(key))).toBe(1);
    expect((await readAll(await inDatabase.open(key))).toString()).toBe('in rows');
    expect((await readAll(await onDisk.open(key))).toString()).toBe('on disk');
    expect(blobDirectory(':memory:')).toBe(join(tmpdir(), 'fieldwork-blobs'));
  });
});

async function chunkCount(org: string): Promise<number> {
  const rows = await database.db
    .selectFrom('blob_chunks')
    .innerJoin('blobs', 'blobs.id', 'blob_chunks.blob_id')
    .select('blob_chunks.seq')
    .where('blobs.organization_id', '=', org)
    .execute();
  return rows.length;
}
