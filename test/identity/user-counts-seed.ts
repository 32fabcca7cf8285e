import type { Db } from '../../src/db/database.js';

/** Organisation `alpha` and its user `UR_owner`, in a database migrated to 0023 or later. */
export async function seedOwner(database: Db): Promise<void> {
  await database.db
    .insertInto('organizations')
    .values({
      id: 'alpha',
      name: 'alpha',
      type: 'Standard',
      status: 'Active',
      created_at: '2024-01-01T00:00:00Z',
    } as never)
    .execute();
  await database.db
    .insertInto('users')
    .values({
      id: 'UR_owner',
      organization_id: 'alpha',
      username: 'owner',
      email: 'owner@example.com',
      first_name: 'F',
      last_name: 'L',
      user_type: 'UT_BRANDADMIN',
      language: 'en',
      account_status: 'active',
      unsubscribed: 0,
      created_at: '2024-01-01T00:00:00Z',
    } as never)
    .execute();
}
