import { afterAll, beforeAll, expect, it } from 'vitest';
import { principalForToken } from '../../src/modules/users/users.service.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

// Issue 18: the principal carried the caller's whole user row, password hash included, for a whole request.
it("holds what authorisation needs and nothing else: never the caller's row or password hash", async () => {
  const org = await t.newOrganization({ targetAudience: true });
  const path = `/API/v3/users/${org.userId}`;
  expect((await t.call(org.apiToken, 'PUT', path, { password: 'correct horse battery' })).status).toBe(200);
  const { password_hash } = await t.database.db
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', org.userId)
    .executeTakeFirstOrThrow();
  expect(password_hash).toEqual(expect.any(String));

  const deps = { db: t.database.db, clock: t.clock, config: testConfig() };
  const principal = await principalForToken(deps, org.apiToken);
  // A plain object of exactly these fields: nothing kept beside them, visible or not.
  expect(principal).toStrictEqual({
    userId: org.userId,
    organizationId: org.brandId,
    userType: 'UT_BRANDADMIN',
    targetAudience: true,
  });
});
