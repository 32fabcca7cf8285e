import { randomBytes } from 'node:crypto';
import { type Kysely, Migrator, sql } from 'kysely';
import { createDatabase, type Db, SCHEMA_CHANGE_LOCK } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Database } from '../../src/tables.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from './postgres.js';
import { TEST_ENGINE } from './test-app.js';

/**
 * For migration tests: a fresh database on the engine under test (a new schema on PostgreSQL), migrated
 * up to `migration` and no further, with `migrateTo` to take it on (or back) after the test seeds the
 * tables as they were then. On PostgreSQL each run holds the lock that migrations and schema drops take
 * (src/db/database.ts): a migration that drops a table must not run while another test's migration
 * introspects the database's tables.
 */
export async function databaseAtMigration(migration: string): Promise<{
  database: Db;
  migrateTo(migration: string): Promise<void>;
  drop(): Promise<void>;
}> {
  let schema: string | undefined;
  if (TEST_ENGINE === 'postgres') {
    schema = `m_${randomBytes(6).toString('hex')}`;
    await withPgClient((client) => client.query(`create schema ${schema}`));
  }
  const database = createDatabase({
    dataDir: ':memory:',
    ...(schema ? { databaseUrl: TEST_DATABASE_URL, pgSchema: schema } : {}),
  });
  const run = async (db: Kysely<Database>, target: string) => {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const { error } = await migrator.migrateTo(target);
    if (error) throw error;
  };
  const migrateTo = async (target: string) => {
    if (!schema) return run(database.db, target);
    await database.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
      try {
        await run(connection, target);
      } finally {
        await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
      }
    });
  };
  await migrateTo(migration);
  return { database, migrateTo, drop: async () => (schema ? dropSchema(schema) : undefined) };
}
