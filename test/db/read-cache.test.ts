import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createDatabase, type Db, migrateToLatest } from '../../src/db/database.js';
import { cachedRead } from '../../src/db/read-cache.js';
import { bootstrapOrganization } from '../../src/modules/organizations/bootstrap.service.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from '../helpers/postgres.js';
import { databaseWithOrganization, TEST_ENGINE, uniqueBrandId } from '../helpers/test-app.js';

// On PostgreSQL nothing is kept (other servers' commits are invisible here): every call reads.
const KEPT = TEST_ENGINE === 'sqlite' ? 0 : 1;

let database: Db;
let brandId: string;
let close: () => Promise<void>;
let reads = 0;
/** Set by a test to hold the next read between SQLite's answer and the cache's keeping it. */
let holdNextRead: Promise<void> | undefined;
const nameOf = cachedRead<{ name: string }>(async (db, id) => {
  reads++;
  const hold = holdNextRead;
  holdNextRead = undefined;
  const row = await db.selectFrom('organizations').select('name').where('id', '=', id).executeTakeFirst();
  await hold;
  return row;
});
const rename = (db: Db, name: string) =>
  db.db.updateTable('organizations').set({ name }).where('id', '=', brandId).execute();

beforeAll(async () => {
  ({ database, brandId, close } = await databaseWithOrganization('First'));
});
afterAll(() => close());

/** Reads through the cache and tells how many times the database was read for it. */
async function readCounted(db: Db, id = brandId) {
  const before = reads;
  const row = await nameOf(db.db, id);
  return { name: row?.name, reads: reads - before };
}

it('reads again after every write on this connection, and never serves a row older than it', async () => {
  expect(await readCounted(database)).toEqual({ name: 'First', reads: 1 });
  expect(await readCounted(database)).toEqual({ name: 'First', reads: KEPT });
  await rename(database, 'Second');
  expect(await readCounted(database)).toEqual({ name: 'Second', reads: 1 });
  // A write to other rows counts too: the cache does not know what a row depends on.
  await bootstrapOrganization(database.db, systemClock.now(), { brandId: uniqueBrandId() });
  expect(await readCounted(database)).toEqual({ name: 'Second', reads: 1 });
  expect(await readCounted(database)).toEqual({ name: 'Second', reads: KEPT });
});

it('keeps no misses', async () => {
  expect(await readCounted(database, 'no-such-org')).toEqual({ name: undefined, reads: 1 });
  expect(await readCounted(database, 'no-such-org')).toEqual({ name: undefined, reads: 1 });
});

it('does not keep a row that a write overtook while it was being read', async () => {
  await rename(database, 'Second'); // so that nothing is kept and the next call reads
  let release = () => {};
  holdNextRead = new Promise<void>((resolve) => {
    release = resolve;
  });
  const stale = nameOf(database.db, brandId);
  await rename(database, 'Third');
  // Another caller reads meanwhile: the cache now stands after the write.
  expect(await readCounted(database)).toEqual({ name: 'Third', reads: 1 });
  release();
  expect((await stale)?.name).toBe('Second');
  expect(await readCounted(database)).toEqual({ name: 'Third', reads: KEPT });
});

it("reads again after another connection's commit", async () => {
  const { mine, theirs, cleanup } = await twoConnections();
  try {
    await migrateToLatest(mine.db);
    await bootstrapOrganization(mine.db, systemClock.now(), { brandId, name: 'Mine' });
    expect(await readCounted(mine)).toEqual({ name: 'Mine', reads: 1 });
    expect(await readCounted(mine)).toEqual({ name: 'Mine', reads: KEPT });
    await rename(theirs, 'Theirs');
    expect(await readCounted(mine)).toEqual({ name: 'Theirs', reads: 1 });
  } finally {
    await cleanup();
  }
});

/** Two connections to one new database: a SQLite file, or a PostgreSQL schema. */
async function twoConnections() {
  if (TEST_ENGINE === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'fieldwork-cache-'));
    const mine = createDatabase({ dataDir: dir });
    const theirs = createDatabase({ dataDir: dir });
    const cleanup = async () => {
      await mine.close();
      await theirs.close();
      rmSync(dir, { recursive: true, force: true });
    };
    return { mine, theirs, cleanup };
  }
  const pgSchema = `t_${randomBytes(6).toString('hex')}`;
  await withPgClient((client) => client.query(`create schema ${pgSchema}`));
  const open = () => createDatabase({ dataDir: ':memory:', databaseUrl: TEST_DATABASE_URL, pgSchema });
  const mine = open();
  const theirs = open();
  const cleanup = async () => {
    await mine.close();
    await theirs.close();
    await dropSchema(pgSchema);
  };
  return { mine, theirs, cleanup };
}
