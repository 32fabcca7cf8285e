import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

const unique = () => randomBytes(4).toString('hex');

/** A user of the admin's organisation, with a fresh token of its own. */
export async function createUserWithToken(
  t: TestApp,
  adminToken: string,
  userType: 'UT_BRANDADMIN' | 'UT_PARTICIPANT' = 'UT_PARTICIPANT',
): Promise<{ userId: string; token: string }> {
  const suffix = unique();
  const created = await t.call(adminToken, 'POST', '/API/v3/users', {
    username: `user-${suffix}`,
    firstName: 'Test',
    lastName: `User ${suffix}`,
    userType,
    email: `user-${suffix}@example.com`,
    password: 'correct horse battery',
  });
  expect(created.status).toBe(200);
  const userId = created.body.result.id as string;
  const token = await t.call(adminToken, 'POST', `/API/v3/users/${userId}/apitoken`);
  expect(token.status).toBe(200);
  return { userId, token: token.body.result.apiToken as string };
}
