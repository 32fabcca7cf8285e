import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { type Db, isUniqueViolation, migrateToLatest } from '../../src/db/database.js';
import { migrations } from '../../src/db/migrations/index.js';
import { databaseAtMigration } from '../helpers/database-at-migration.js';

// Migration 0008 swaps the global unique username for one per organisation. On SQLite that rebuilds the
// users table: a store made before it must keep every user, token and membership (dropping `users` with
// foreign keys on would cascade to them), and foreign keys must be enforced again afterwards.

let opened: { database: Db; drop(): Promise<void> } | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop();
  opened = undefined;
});

/** A fresh database on the engine under test, migrated only up to the migration before 0008. */
function storeBefore0008(): Promise<{ database: Db; drop(): Promise<void> }> {
  const before = Object.keys(migrations)
    .filter((name) => name < '0008')
    .sort();
  return databaseAtMigration(before[before.length - 1] as string);
}

const at = '2024-01-01T00:00:00Z';
const user = (id: string, organizationId: string, username: string) => ({
  id,
  organization_id: organizationId,
  username,
  email: `${id}@example.com`,
  first_name: 'F',
  last_name: 'L',
  user_type: 'UT_BRANDADMIN',
  language: 'en',
  account_status: 'active',
  created_at: at,
});

// biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0008, not today's types
async function seed(db: Kysely<any>): Promise<void> {
  for (const id of ['alpha', 'beta']) {
    await db
      .insertInto('organizations')
      .values({ id, name: id, type: 'Standard', status: 'Active', created_at: at })
      .execute();
  }
  await db
    .insertInto('users')
    .values([
      user('UR_a1', 'alpha', 'admin@alpha'),
      user('UR_a2', 'alpha', 'pat'),
      user('UR_b1', 'beta', 'admin@beta'),
    ])
    .execute();
  await db
    .insertInto('api_tokens')
    .values([
      { token_hash: 'hash-a1', organization_id: 'alpha', user_id: 'UR_a1', created_at: at },
      { token_hash: 'hash-b1', organization_id: 'beta', user_id: 'UR_b1', created_at: at },
    ])
    .execute();
  await db
    .insertInto('groups')
    .values({
      id: 'GR_a',
      organization_id: 'alpha',
      name: 'g',
      type: 'GT_DEFAULT',
      creator_id: 'UR_a1',
      created_at: at,
    })
    .execute();
  await db
    .insertInto('group_members')
    .values({ organization_id: 'alpha', group_id: 'GR_a', user_id: 'UR_a2', added_at: at })
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as above
async function snapshot(db: Kysely<any>) {
  return {
    users: await db.selectFrom('users').selectAll().orderBy('id').execute(),
    tokens: await db.selectFrom('api_tokens').selectAll().orderBy('token_hash').execute(),
    members: await db.selectFrom('group_members').selectAll().execute(),
  };
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

it('keeps every user, token and membership, then takes a username once per organisation', async () => {
  opened = await storeBefore0008();
  // biome-ignore lint/suspicious/noExplicitAny: the schema before 0008
  const db = opened.database.db as unknown as Kysely<any>;
  await seed(db);
  const before = await snapshot(db);
  expect(before.tokens).toHaveLength(2);
  expect(before.members).toHaveLength(1);

  expect(await migrateToLatest(opened.database.db)).toContain('0008-usernames-per-organization');
  // Every user, token and membership as it was; the responseCounts columns have since moved to the
  // counter's stripes (0023: all zero here, so no stripe).
  const moved = new Set(['response_count_auditable', 'response_count_generated', 'response_count_deleted']);
  const withoutCounts = (row: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(row).filter(([column]) => !moved.has(column)));
  expect(before.users.every((row) => [...moved].every((column) => Number(row[column]) === 0))).toBe(true);
  expect(await snapshot(db)).toEqual({ ...before, users: before.users.map(withoutCounts) });
  expect(await db.selectFrom('user_response_counts').selectAll().execute()).toEqual([]);

  // Another organisation may now use the name; the same organisation still may not.
  await db
    .insertInto('users')
    .values(user('UR_b2', 'beta', 'pat'))
    .execute();
  const clash = await failure(
    db
      .insertInto('users')
      .values(user('UR_a3', 'alpha', 'pat'))
      .execute(),
  );
  expect(isUniqueViolation(clash)).toBe(true);

  // Foreign keys hold again: a token for no user is refused, and deleting a user takes its token along.
  const orphan = { token_hash: 'hash-x', organization_id: 'alpha', user_id: 'UR_none', created_at: at };
  await failure(db.insertInto('api_tokens').values(orphan).execute());
  await db.deleteFrom('users').where('id', '=', 'UR_b1').execute();
  const tokens = await db.selectFrom('api_tokens').select('token_hash').execute();
  expect(tokens).toEqual([{ token_hash: 'hash-a1' }]);
});
