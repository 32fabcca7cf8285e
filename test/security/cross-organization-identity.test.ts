import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A token of organisation B can never read or change organisation A's data. Every identity route is tried
 * with B's administrator token against A's resources; each attempt must fail as if the resource did not
 * exist, and A's data must be unchanged afterwards.
 */
let t: TestApp;
let a: { apiToken: string; userId: string; brandId: string };
let b: { apiToken: string; userId: string; brandId: string };
let aUser: { userId: string; token: string };
let aDivision: string;
let aGroup: string;
let bGroup: string;

beforeAll(async () => {
  t = await buildTestApp();
  a = await t.newOrganization();
  b = await t.newOrganization();
  aUser = await createUserWithToken(t, a.apiToken);
  aDivision = (await t.call(a.apiToken, 'POST', '/API/v3/divisions', { name: 'A only' })).body.result.id;
  aGroup = (await t.call(a.apiToken, 'POST', '/API/v3/groups', { name: 'A group' })).body.result.id;
  await t.call(a.apiToken, 'POST', `/API/v3/groups/${aGroup}/members`, { userId: aUser.userId });
  bGroup = (await t.call(b.apiToken, 'POST', '/API/v3/groups', { name: 'B group' })).body.result.id;
});
afterAll(() => t.close());

describe("a token of organisation B against organisation A's resources", () => {
  const attempts: [string, string, () => string, (() => unknown)?][] = [
    ['GET', 'organization', () => `/API/v3/organizations/${a.brandId}`],
    ['PUT', 'organization', () => `/API/v3/organizations/${a.brandId}`, () => ({ targetAudience: true })],
    ['GET', 'user', () => `/API/v3/users/${aUser.userId}`],
    [
      'PUT',
      'user',
      () => `/API/v3/users/${aUser.userId}`,
      () => ({ lastName: 'Hijacked', userType: 'UT_BRANDADMIN' }),
    ],
    ['DELETE', 'user', () => `/API/v3/users/${aUser.userId}`],
    ['POST', 'user token', () => `/API/v3/users/${aUser.userId}/apitoken`],
    ['GET', 'division', () => `/API/v3/divisions/${aDivision}`],
    ['GET', 'group', () => `/API/v3/groups/${aGroup}`],
    ['DELETE', 'group', () => `/API/v3/groups/${aGroup}`],
    ['POST', 'group members', () => `/API/v3/groups/${aGroup}/members`, () => ({ userId: b.userId })],
    ['DELETE', 'group members', () => `/API/v3/groups/${aGroup}/members`, () => ({ userId: aUser.userId })],
    ['DELETE', 'group member', () => `/API/v3/groups/${aGroup}/members/${aUser.userId}`],
    [
      'POST',
      "A's user into B's group",
      () => `/API/v3/groups/${bGroup}/members`,
      () => ({ userId: aUser.userId }),
    ],
  ];

  it.each(attempts)('%s %s answers 404', async (method, _what, url, body) => {
    const res = await t.call(b.apiToken, method, url(), body?.());
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorMessage).toBeTruthy();
  });

  it("refuses A's division when B creates or changes a user", async () => {
    const res = await t.call(b.apiToken, 'POST', '/API/v3/users', {
      username: 'b-user-in-a-division',
      firstName: 'B',
      lastName: 'User',
      userType: 'UT_PARTICIPANT',
      email: 'b@example.com',
      divisionId: aDivision,
    });
    expect(res.status).toBe(400);
    const group = await t.call(b.apiToken, 'POST', '/API/v3/groups', { name: 'x', divisionId: aDivision });
    expect(group.status).toBe(400);
    const division = await t.call(b.apiToken, 'POST', '/API/v3/divisions', {
      name: 'x',
      divisionAdmins: [aUser.userId],
    });
    expect(division.status).toBe(400);
  });

  it("lists none of A's users, divisions or groups", async () => {
    const lists = await Promise.all(
      ['/API/v3/users', '/API/v3/divisions', '/API/v3/groups'].map((url) => t.call(b.apiToken, 'GET', url)),
    );
    const ids = lists.flatMap((res) => res.body.result.elements.map((e: { id: string }) => e.id));
    expect(ids).not.toContain(a.userId);
    expect(ids).not.toContain(aUser.userId);
    expect(ids).not.toContain(aDivision);
    expect(ids).not.toContain(aGroup);
    expect(ids).toContain(b.userId);
  });

  it("leaves A's data exactly as it was", async () => {
    const user = await t.call(a.apiToken, 'GET', `/API/v3/users/${aUser.userId}`);
    expect(user.body.result.lastName).not.toBe('Hijacked');
    expect(user.body.result.userType).toBe('UT_PARTICIPANT');
    expect((await t.call(aUser.token, 'GET', '/API/v3/whoami')).status).toBe(200);
    const group = await t.call(a.apiToken, 'GET', `/API/v3/groups/${aGroup}`);
    expect(group.body.result.members).toEqual([{ userId: aUser.userId }]);
    const org = await t.call(a.apiToken, 'GET', `/API/v3/organizations/${a.brandId}`);
    expect(org.body.result.targetAudience).toBe(false);
    const whoami = await t.call(b.apiToken, 'GET', '/API/v3/whoami');
    expect(whoami.body.result.brandId).toBe(b.brandId);
  });
});
