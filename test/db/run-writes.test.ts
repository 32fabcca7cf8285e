import { InsertQueryNode, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { dialectOf, type Write } from '../../src/db/dialect/index.js';
import { openTestDatabase, TEST_ENGINE } from '../helpers/test-app.js';

/**
 * The dialect's runWrites (decision 0021): writes whose results nobody reads, in one round trip where a
 * statement costs one (PostgreSQL: one statement of data-modifying CTEs), one after another in-process
 * (SQLite). A plugin counts the statements run for the caller (begin and commit are not shown to plugins)
 * and the inserts it is shown.
 */
let database: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  await sql`create table rw_parents (id text primary key, total integer not null)`.execute(database.db);
  await sql`create table rw_children (id text primary key,
    parent_id text not null references rw_parents (id), note text)`.execute(database.db);
  await sql`create table rw_wide (id integer primary key, a text, b text, c text, d text, e text, f text,
    g text, h text, i text, j text, k text, l text, m text, n text, o text, p text, q text, r text, s text,
    t text, u text, v text, w text, x text, y text)`.execute(database.db);
});
afterAll(async () => {
  await database.close();
  await drop();
});

/** The database with a plugin that counts executed statements and the inserts (by table) it is shown. */
function counting() {
  const counts = { executed: 0, inserts: [] as string[] };
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      if (InsertQueryNode.is(node)) counts.inserts.push(node.into?.table.identifier.name ?? '');
      return node;
    },
    transformResult: async ({ result }) => {
      counts.executed++;
      return result;
    },
  };
  return { db: database.db.withPlugin(plugin), counts };
}

it('runs every write: a parent, its children and an update of another row, the foreign key checked', async () => {
  const { db, counts } = counting();
  await sql`insert into rw_parents (id, total) values ('p0', 5)`.execute(database.db);
  await db.transaction().execute(async (trx) => {
    const writes: Write[] = [
      trx.insertInto('rw_parents' as never).values({ id: 'p1', total: 0 } as never),
      trx.insertInto('rw_children' as never).values([
        { id: 'c1', parent_id: 'p1', note: 'first' },
        { id: 'c2', parent_id: 'p1', note: "it's $1 and ?" },
      ] as never),
      trx
        .updateTable('rw_parents' as never)
        .set({ total: sql`total + 2` } as never)
        .where('id' as never, '=', 'p0' as never),
    ];
    await dialectOf(trx).runWrites(trx, writes);
  });
  const parents = await sql<{
    id: string;
    total: number;
  }>`select id, total from rw_parents order by id`.execute(database.db);
  expect(parents.rows.map((r) => [r.id, Number(r.total)])).toEqual([
    ['p0', 7],
    ['p1', 0],
  ]);
  const children = await sql<{
    id: string;
    note: string;
  }>`select id, note from rw_children order by id`.execute(database.db);
  expect(children.rows).toEqual([
    { id: 'c1', note: 'first' },
    { id: 'c2', note: "it's $1 and ?" },
  ]);
  // Each insert was shown to the plugins as a statement of its own.
  expect(counts.inserts).toEqual(['rw_parents', 'rw_children']);
  // One statement for the three writes on PostgreSQL, three on SQLite.
  expect(counts.executed).toBe(TEST_ENGINE === 'postgres' ? 1 : 3);
});

it('a write that fails leaves none of them written, and its error is the one thrown', async () => {
  const { db } = counting();
  const attempt = db.transaction().execute(async (trx) => {
    await dialectOf(trx).runWrites(trx, [
      trx.insertInto('rw_parents' as never).values({ id: 'p2', total: 0 } as never),
      trx.insertInto('rw_children' as never).values({ id: 'c3', parent_id: 'p2' } as never),
      trx.insertInto('rw_parents' as never).values({ id: 'p0', total: 1 } as never),
    ]);
  });
  const failure = await attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(dialectOf(database.db).isUniqueViolation(failure)).toBe(true);
  const left = await sql<{ n: number }>`select count(*) as n from rw_parents where id = 'p2'`.execute(
    database.db,
  );
  expect(Number(left.rows[0]?.n)).toBe(0);
  const children = await sql<{ n: number }>`select count(*) as n from rw_children where id = 'c3'`.execute(
    database.db,
  );
  expect(Number(children.rows[0]?.n)).toBe(0);
});

it('writes that bind more values than one PostgreSQL statement takes are all written', async () => {
  const { db, counts } = counting();
  const columns = 'abcdefghijklmnopqrstuvwxy'.split('');
  // Three inserts of 1,000 rows of 26 values: 78,000 in all, each insert within both engines' limits.
  const rows = (from: number) =>
    Array.from({ length: 1000 }, (_, i) => ({
      id: from + i,
      ...Object.fromEntries(columns.map((c) => [c, `${c}${from + i}`])),
    }));
  await db.transaction().execute(async (trx) => {
    await dialectOf(trx).runWrites(
      trx,
      [0, 1000, 2000].map((from) => trx.insertInto('rw_wide' as never).values(rows(from) as never)),
    );
  });
  const stored = await sql<{
    n: number;
    last: string;
  }>`select count(*) as n, max(y) as last from rw_wide`.execute(database.db);
  expect(Number(stored.rows[0]?.n)).toBe(3000);
  expect(stored.rows[0]?.last).toBe('y999');
  // PostgreSQL: split into a statement of two inserts and one of one; SQLite: one each.
  expect(counts.executed).toBe(TEST_ENGINE === 'postgres' ? 2 : 3);
});
