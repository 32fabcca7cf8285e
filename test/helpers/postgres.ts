import pg from 'pg';
import { SCHEMA_CHANGE_LOCK } from '../../src/db/database.js';

/** The machine's PostgreSQL (trust auth, database `test`), unless TEST_DATABASE_URL names another. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function withPgClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops a test schema under the lock migrations hold, so no migration is introspecting at that moment. */
export async function dropSchema(schema: string): Promise<void> {
  await withPgClient(async (client) => {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [SCHEMA_CHANGE_LOCK]);
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query('commit');
  });
}
