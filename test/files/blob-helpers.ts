import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createDatabase, type Db, migrateToLatest } from '../../src/db/database.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from '../helpers/postgres.js';

export const TEST_ENGINE = process.env.FIELDWORK_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A migrated throwaway database on the engine under test, without the app (the blob stores need none).
 * SQLite is a file, as in production: an in-memory database would hold every stored byte in this
 * process and hide whether the store streams. PostgreSQL gets a fresh schema.
 */
export async function openBlobDatabase(): Promise<{ database: Db; close(): Promise<void> }> {
  if (TEST_ENGINE === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await withPgClient((client) => client.query(`create schema ${schema}`));
    const database = createDatabase({
      dataDir: ':memory:',
      databaseUrl: TEST_DATABASE_URL,
      pgSchema: schema,
    });
    await migrateToLatest(database.db);
    const close = async () => {
      await database.close();
      await dropSchema(schema);
    };
    return { database, close };
  }
  const dir = await mkdtemp(join(tmpdir(), 'fieldwork-blob-db-'));
  const database = createDatabase({ dataDir: dir });
  await migrateToLatest(database.db);
  const close = async () => {
    await database.close();
    await rm(dir, { recursive: true });
  };
  return { database, close };
}

/** A key in a fresh organisation, so tests sharing a store never see each other's blobs. */
export function freshKey(name = 'exports/file.zip'): string {
  return `org${randomBytes(5).toString('hex')}/${name}`;
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Yields `data` in pieces of uneven sizes (1 byte to 100 KB), as a network upload arrives. */
export async function* unevenPieces(data: Buffer): AsyncGenerator<Buffer> {
  let offset = 0;
  for (let i = 0; offset < data.length; i++) {
    const size = i % 7 === 0 ? 1 : 1 + ((i * 7919) % 100_000);
    yield Buffer.from(data.subarray(offset, offset + size));
    offset += size;
  }
}

/** A source that yields `before` bytes and then fails, as a dropped upload does. */
export async function* failingSource(before: number): AsyncGenerator<Buffer> {
  for (let sent = 0; sent < before; sent += 64 * 1024) yield randomBytes(64 * 1024);
  throw new Error('client went away');
}

/**
 * V8 frees a Buffer only when it collects garbage, which it may put off until tens of megabytes of
 * Buffers await it; and the allocator reuses freed pages, so RSS alone can hide a held copy. The meter
 * collects every few megabytes and records two peaks: RSS (what the operating system sees) and the live
 * JavaScript memory, heap and Buffers (what the store holds on to).
 */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const SAMPLE_EVERY = 4 * 1024 * 1024;

const live = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

export interface MemoryGrowth {
  rss: number;
  live: number;
}

/** Peak growth over a stream of pieces, sampled (after a collection) every few megabytes. */
export function memoryMeter() {
  collectGarbage();
  const baseline = { rss: process.memoryUsage.rss(), live: live() };
  const peak = { ...baseline };
  let sinceSample = 0;
  const sample = (bytes: number) => {
    sinceSample += bytes;
    if (sinceSample < SAMPLE_EVERY) return;
    sinceSample = 0;
    collectGarbage();
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    peak.live = Math.max(peak.live, live());
  };
  const growth = (): MemoryGrowth => ({ rss: peak.rss - baseline.rss, live: peak.live - baseline.live });
  return { sample, growth };
}

/** `total` random bytes, 64 KB at a time, hashed as they go and metered. */
export function measuredSource(total: number) {
  const hash = createHash('sha256');
  const { sample, growth } = memoryMeter();
  async function* source(): AsyncGenerator<Buffer> {
    for (let sent = 0; sent < total; sent += 64 * 1024) {
      const piece = randomBytes(Math.min(64 * 1024, total - sent));
      hash.update(piece);
      sample(piece.length);
      yield piece;
    }
  }
  return { source: source(), growth, digest: () => hash.digest('hex') };
}

/** Opens a stream and hashes it without keeping it, metered from before the open. */
export async function measuredRead(open: () => Promise<Readable>) {
  const hash = createHash('sha256');
  const { sample, growth } = memoryMeter();
  for await (const part of await open()) {
    hash.update(part as Buffer);
    sample((part as Buffer).length);
  }
  return { digest: hash.digest('hex'), growth: growth() };
}
