import { randomBytes } from 'node:crypto';
import { Migrator } from 'kysely';
import { createDatabase, type Db } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from './postgres.js';
import { TEST_ENGINE } from './test-app.js';

/**
 * For migration tests: a fresh database on the engine under test (a new schema on PostgreSQL), migrated
 * up to `migration` and no further, with a migrator that takes it on (`migrateTo`) after the test seeds
 * the tables as they were then.
 */
export async function databaseAtMigration(
  migration: string,
): Promise<{ database: Db; migrator: Migrator; drop(): Promise<void> }> {
  let schema: string | undefined;
  if (TEST_ENGINE === 'postgres') {
    schema = `m_${randomBytes(6).toString('hex')}`;
    await withPgClient((client) => client.query(`create schema ${schema}`));
  }
  const database = createDatabase({
    dataDir: ':memory:',
    ...(schema ? { databaseUrl: TEST_DATABASE_URL, pgSchema: schema } : {}),
  });
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error;
  return { database, migrator, drop: async () => (schema ? dropSchema(schema) : undefined) };
}
