import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { changedTables, Fingerprinter } from './fingerprint.js';
import { operationsOf } from './operations.js';
import { arbitraryFor } from './schema-arbitrary.js';

// The fuzzer's own parts, checked against the real document and databases: a fuzzer whose "valid" bodies
// were invalid, or whose fingerprint missed a write, would pass while proving nothing.

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the schema converter', () => {
  it('generates only bodies that the document’s own schema of each operation accepts', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/API/v3/openapi.json' })).json();
    const ajv = addFormats(new Ajv({ strict: false, allErrors: false }));
    const withJson = operationsOf(document).filter((op) => op.bodies['application/json']);
    expect(withJson.length).toBeGreaterThan(25);
    for (const op of withJson) {
      const schema = op.bodies['application/json'] ?? {};
      const validate = ajv.compile(schema);
      for (const value of fc.sample(arbitraryFor(schema), { numRuns: 40, seed: 19 }))
        expect(
          validate(value),
          `${op.key}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`,
        ).toBe(true);
    }
  });
});

describe('the database fingerprint', () => {
  it('names the table a write changed, on this engine, and sees no change after a read', async () => {
    const org = await t.newOrganization();
    const fingerprints = await Fingerprinter.of(t.database);
    const before = await fingerprints.take();
    await t.call(org.apiToken, 'GET', '/API/v3/users');
    const afterRead = await fingerprints.take();
    expect(changedTables(before, afterRead)).toEqual([]);

    await t.database.db
      .updateTable('users')
      .set({ first_name: 'Changed' })
      .where('id', '=', org.userId)
      .execute();
    const afterUpdate = await fingerprints.take();
    expect(changedTables(afterRead, afterUpdate)).toEqual(['users']);

    await t.database.db.deleteFrom('api_tokens').where('user_id', '=', org.userId).execute();
    expect(changedTables(afterUpdate, await fingerprints.take())).toEqual(['api_tokens']);
  });

  it('sees a row rewritten with other values while the row count stays the same', async () => {
    const org = await t.newOrganization();
    const fingerprints = await Fingerprinter.of(t.database);
    const before = await fingerprints.take();
    await t.database.db.transaction().execute(async (trx) => {
      await trx.updateTable('organizations').set({ name: 'Renamed' }).where('id', '=', org.brandId).execute();
    });
    expect(changedTables(before, await fingerprints.take())).toEqual(['organizations']);
  });
});
