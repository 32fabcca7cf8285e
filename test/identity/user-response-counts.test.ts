import type { Kysely } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { addResponseCounts, findUserRecord } from '../../src/modules/users/users.store.js';
import { databaseAtMigration } from '../helpers/database-at-migration.js';
import { seedOwner } from './user-counts-seed.js';

// Issue 20: a survey owner's responseCounts live in a counter of stripes (migration 0023), not on the
// users row that every completion of the owner's surveys used to update and hold locked until commit.

let opened: Awaited<ReturnType<typeof databaseAtMigration>> | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop();
  opened = undefined;
});

const at = '2024-01-01T00:00:00Z';
const scope = { organizationId: 'alpha' };

// biome-ignore lint/suspicious/noExplicitAny: the tables as they were before 0023, not today's types
async function seedBefore0023(db: Kysely<any>): Promise<void> {
  await db
    .insertInto('organizations')
    .values({ id: 'alpha', name: 'alpha', type: 'Standard', status: 'Active', created_at: at })
    .execute();
  const user = (id: string, counts: [number, number, number]) => ({
    id,
    organization_id: 'alpha',
    username: id,
    email: `${id}@example.com`,
    first_name: 'F',
    last_name: 'L',
    user_type: 'UT_BRANDADMIN',
    language: 'en',
    account_status: 'active',
    created_at: at,
    response_count_auditable: counts[0],
    response_count_generated: counts[1],
    response_count_deleted: counts[2],
  });
  await db
    .insertInto('users')
    .values([user('UR_owner', [7, 3, 2]), user('UR_none', [0, 0, 0])])
    .execute();
}

it('migration 0023 keeps every count, and its down migration puts the sums back on the users rows', async () => {
  opened = await databaseAtMigration('0022-presentation-counts');
  const { database, migrateTo } = opened;
  await seedBefore0023(database.db);
  await expect(migrateTo('0023-user-response-counts')).resolves.toBeUndefined();

  expect((await findUserRecord(database.db, scope, 'UR_owner'))?.responseCounts).toEqual({
    auditable: 7,
    generated: 3,
    deleted: 2,
  });
  expect((await findUserRecord(database.db, scope, 'UR_none'))?.responseCounts).toEqual({
    auditable: 0,
    generated: 0,
    deleted: 0,
  });
  // Another organisation's scope finds nobody.
  expect(await findUserRecord(database.db, { organizationId: 'beta' }, 'UR_owner')).toBeUndefined();

  await addResponseCounts(database.db, scope, 'UR_owner', { auditable: 1 }, 5);
  await addResponseCounts(database.db, scope, 'UR_owner', { generated: 2, deleted: -1 }, 9);
  await expect(migrateTo('0022-presentation-counts')).resolves.toBeUndefined();
  // biome-ignore lint/suspicious/noExplicitAny: the users table as it is again before 0023
  const before = await (database.db as Kysely<any>)
    .selectFrom('users')
    .select(['id', 'response_count_auditable', 'response_count_generated', 'response_count_deleted'])
    .orderBy('id')
    .execute();
  expect(before.map((row) => Object.values(row).map(String))).toEqual([
    ['UR_none', '0', '0', '0'],
    ['UR_owner', '8', '5', '1'],
  ]);
});

it('deltas in any stripes sum to the counts; deleting the user deletes the counter', async () => {
  opened = await databaseAtMigration('0023-user-response-counts');
  const { database } = opened;
  await seedOwner(database);
  const adds = Array.from({ length: 40 }, (_, n) =>
    addResponseCounts(database.db, scope, 'UR_owner', { auditable: 1, generated: n % 2 }),
  );
  await Promise.all(adds);
  await addResponseCounts(database.db, scope, 'UR_owner', { auditable: -3, deleted: 3 }, 0);
  expect((await findUserRecord(database.db, scope, 'UR_owner'))?.responseCounts).toEqual({
    auditable: 37,
    generated: 20,
    deleted: 3,
  });
  const stripes = await database.db
    .selectFrom('user_response_counts')
    .select('stripe')
    .where('user_id', '=', 'UR_owner')
    .execute();
  expect(stripes.length).toBeGreaterThan(1);
  expect(stripes.length).toBeLessThanOrEqual(16);

  await database.db.deleteFrom('users').where('id', '=', 'UR_owner').execute();
  const left = await database.db.selectFrom('user_response_counts').selectAll().execute();
  expect(left).toEqual([]);
});
