import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { preparedQuery } from '../../src/db/prepared.js';
import { databaseWithOrganization } from '../helpers/test-app.js';

const nameById = preparedQuery((db) =>
  db.selectFrom('organizations').select(['id', 'name']).where('id', '=', ''),
);

let database: Db;
let brandId: string;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ database, brandId, close } = await databaseWithOrganization('Before'));
});
afterAll(() => close());

it('reads a row by its parameters, as named columns', async () => {
  expect(await nameById(database.db, [brandId])).toEqual([{ id: brandId, name: 'Before' }]);
  expect(await nameById(database.db, ['no-such-org'])).toEqual([]);
});

it("never sees another transaction's uncommitted write, while that transaction sees its own", async () => {
  let outside: Promise<{ name: string }[]> | undefined;
  let inside: { name: string }[] = [];
  await expect(
    database.db.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'Uncommitted' }).where('id', '=', brandId).execute();
      inside = await nameById(trx, [brandId]);
      // Not awaited here: on SQLite it must queue behind this transaction, not read inside it.
      outside = nameById(database.db, [brandId]);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(inside).toEqual([{ id: brandId, name: 'Uncommitted' }]);
  expect(await outside).toEqual([{ id: brandId, name: 'Before' }]);
});

// On SQLite the statement itself refuses first; the call then takes Kysely's path, which reports it.
it('refuses a call with the wrong number of parameters', async () => {
  await expect(nameById(database.db, [])).rejects.toThrow(/takes 1 parameters, got 0/);
});
