import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';

/**
 * A SQLite transaction takes the write lock when it begins (database.ts, ImmediateSqliteDriver). The CLI's
 * commands open their own connection to the file while the server writes to it: a transaction that read
 * first and wrote second failed with "database is locked" when the server committed in between (CI saw it
 * in test/cli/operator-commands.test.ts). Here another connection plays the server, in between. (It needs
 * no server, so it runs in both storage projects, on a SQLite file of its own.)
 */
const root = mkdtempSync(join(tmpdir(), 'fieldwork-sqlite-transactions-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('holds the write lock from its start, so a write after a read is not refused for another connection’s commit', async () => {
  const database = createDatabase({ dataDir: root });
  const other = new SqliteDatabase(join(root, 'fieldwork.db'));
  try {
    await sql`create table t (n integer not null)`.execute(database.db);
    // Told to wait for no lock, the other connection shows whether this transaction holds it.
    other.pragma('busy_timeout = 0');
    await database.db.transaction().execute(async (trx) => {
      await sql`select count(*) from t`.execute(trx);
      expect(() => other.prepare('insert into t (n) values (2)').run()).toThrow(/database is locked/);
      await sql`insert into t (n) values (1)`.execute(trx);
    });
    other.prepare('insert into t (n) values (2)').run();
    const { rows } = await sql<{ n: number }>`select n from t order by n`.execute(database.db);
    expect(rows.map((row) => row.n)).toEqual([1, 2]);
  } finally {
    other.close();
    await database.close();
  }
});
