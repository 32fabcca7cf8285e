/**
 * Issue 20: an import matches each batch of contacts on extRef and on email within the directory. On
 * SQLite, which plans without statistics, those lookups read through `contacts_directory_order` (it
 * starts with the same organisation and directory) and scanned the whole directory for every batch, so a
 * million-row import slowed down batch after batch. They must seek their keys in the key indexes.
 */
import { CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/deps.js';
import { listByEmailKeys, listByExtRefs } from '../../src/modules/contacts/contacts.store.js';
import { buildTestApp, TEST_ENGINE, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let org: { brandId: string; directoryId: string };

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t.close();
});

/**
 * The plan of the one query `run` sends: SQLite's (which plans without statistics), or PostgreSQL's when
 * it may not scan the table (a small test table is scanned whatever its indexes: the question is whether
 * an index serves the lookup).
 */
async function planOf(run: (db: Queryable) => Promise<unknown>): Promise<string> {
  const db = t.database.db;
  const sent: CompiledQuery[] = [];
  const capture: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      sent.push(db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await run(db.withPlugin(capture));
  expect(sent).toHaveLength(1);
  const [query] = sent as [CompiledQuery];
  if (TEST_ENGINE === 'sqlite') {
    const plan = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((row) => row.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const plan = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    return plan.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}

describe("an import's lookups", () => {
  const scope = () => ({ organizationId: org.brandId });
  const keys = (prefix: string) => Array.from({ length: 1000 }, (_, i) => `${prefix}${i}`);

  it('find contacts by extRef through the extRef index, never a scan of the directory', async () => {
    const plan = await planOf((db) => listByExtRefs(db, scope(), org.directoryId, keys('EXT-')));
    expect(plan).toContain(TEST_ENGINE === 'sqlite' ? 'USING INDEX contacts_ext_ref' : 'contacts_ext_ref');
    expect(plan).not.toContain('contacts_directory_order');
  });

  it('find contacts by email through the email index, never a scan of the directory', async () => {
    const plan = await planOf((db) => listByEmailKeys(db, scope(), org.directoryId, keys('a@x.example')));
    expect(plan).toContain(TEST_ENGINE === 'sqlite' ? 'USING INDEX contacts_email' : 'contacts_email');
    expect(plan).not.toContain('contacts_directory_order');
  });
});
