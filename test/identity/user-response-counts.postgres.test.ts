import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { addResponseCounts, findUserRecord } from '../../src/modules/users/users.store.js';
import { databaseAtMigration } from '../helpers/database-at-migration.js';
import { seedOwner } from './user-counts-seed.js';

// PostgreSQL, where recordings of one owner's surveys run at once: they add to different stripes of the
// owner's counter (migration 0023), so one held open does not hold up the others.

let opened: { database: Db; drop(): Promise<void> } | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop();
  opened = undefined;
});

const scope = { organizationId: 'alpha' };

it('a recording holding one stripe does not hold up another stripe of the same owner', async () => {
  opened = await databaseAtMigration('0023-user-response-counts');
  const { database } = opened;
  await seedOwner(database);
  await addResponseCounts(database.db, scope, 'UR_owner', { auditable: 1 }, 1);
  const add = (stripe: number) =>
    database.db.transaction().execute(async (trx) => {
      // A wait for a row lock fails this statement instead of waiting.
      await sql`set local lock_timeout = '300ms'`.execute(trx);
      await addResponseCounts(trx, scope, 'UR_owner', { auditable: 1 }, stripe);
    });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding: () => void = () => {};
  const isHolding = new Promise<void>((resolve) => {
    holding = resolve;
  });
  const holder = database.db.transaction().execute(async (trx) => {
    await addResponseCounts(trx, scope, 'UR_owner', { auditable: 1 }, 1);
    holding();
    await held;
  });
  await isHolding;
  try {
    await expect(add(2)).resolves.toBeUndefined();
    // The same stripe does wait: what the test would see if every recording wrote one row.
    await expect(add(1)).rejects.toThrow(/lock timeout/);
  } finally {
    release();
    await holder;
  }
  expect((await findUserRecord(database.db, scope, 'UR_owner'))?.responseCounts.auditable).toBe(3);
});
