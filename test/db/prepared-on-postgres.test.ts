import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { runCompiled } from '../../src/events/batch-sql.js';
import { databaseWithOrganization, TEST_ENGINE } from '../helpers/test-app.js';

let database: Db;
let brandId: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database, brandId, close } = await databaseWithOrganization('Prepared'));
});
afterAll(() => close());

it('runs a worker statement many times on one connection, prepared there once on PostgreSQL', async () => {
  const byId = database.db.selectFrom('organizations').select('name').where('id', '=', brandId).compile();
  await database.db.connection().execute(async (connection) => {
    for (const id of [brandId, 'no-such-org', brandId])
      expect(await runCompiled(connection, byId.sql, [id])).toEqual(
        id === brandId ? [{ name: 'Prepared' }] : [],
      );
    if (TEST_ENGINE !== 'postgres') return;
    const prepared = await sql<{ statement: string }>`
      select statement from pg_prepared_statements where statement like ${'%from "organizations"%'}`.execute(
      connection,
    );
    expect(prepared.rows.map((row) => row.statement)).toEqual([`/* prepared */ ${byId.sql}`]);
  });
});
