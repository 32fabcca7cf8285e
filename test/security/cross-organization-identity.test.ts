import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { organizationRows } from '../helpers/rows.js';
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

/** Both organisations' identity rows: a refused call leaves them exactly as they were. */
const bothOrganizations = async () => {
  const tables = ['users', 'api_tokens', 'divisions', 'groups', 'group_members'] as const;
  return {
    a: await organizationRows(t, a.brandId, [...tables]),
    b: await organizationRows(t, b.brandId, [...tables]),
  };
};

describe("a token of organisation B against organisation A's resources", () => {
  // Each answers as if the resource did not exist, with the code of the resource it names.
  const attempts: [string, string, string, () => string, (() => unknown)?][] = [
    ['GET', 'organization', 'FW_ORG_1', () => `/API/v3/organizations/${a.brandId}`],
    [
      'PUT',
      'organization',
      'FW_ORG_1',
      () => `/API/v3/organizations/${a.brandId}`,
      () => ({ targetAudience: true }),
    ],
    ['GET', 'user', 'FW_USR_1', () => `/API/v3/users/${aUser.userId}`],
    [
      'PUT',
      'user',
      'FW_USR_1',
      () => `/API/v3/users/${aUser.userId}`,
      () => ({ lastName: 'Hijacked', userType: 'UT_BRANDADMIN' }),
    ],
    ['DELETE', 'user', 'FW_USR_1', () => `/API/v3/users/${aUser.userId}`],
    ['POST', 'user token', 'FW_USR_1', () => `/API/v3/users/${aUser.userId}/apitoken`],
    ['GET', 'division', 'FW_DIV_1', () => `/API/v3/divisions/${aDivision}`],
    ['GET', 'group', 'FW_GRP_1', () => `/API/v3/groups/${aGroup}`],
    ['DELETE', 'group', 'FW_GRP_1', () => `/API/v3/groups/${aGroup}`],
    [
      'POST',
      'group members',
      'FW_GRP_1',
      () => `/API/v3/groups/${aGroup}/members`,
      () => ({ userId: b.userId }),
    ],
    [
      'DELETE',
      'group members',
      'FW_GRP_1',
      () => `/API/v3/groups/${aGroup}/members`,
      () => ({ userId: aUser.userId }),
    ],
    ['DELETE', 'group member', 'FW_GRP_1', () => `/API/v3/groups/${aGroup}/members/${aUser.userId}`],
    [
      'POST',
      "A's user into B's group",
      'FW_USR_1',
      () => `/API/v3/groups/${bGroup}/members`,
      () => ({ userId: aUser.userId }),
    ],
  ];

  it.each(attempts)('%s %s answers 404 %s and changes nothing', async (method, _what, code, url, body) => {
    const before = await bothOrganizations();
    const res = await t.call(b.apiToken, method, url(), body?.());
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe(code);
    expect(res.body.meta.error.errorMessage).toBeTruthy();
    expect(res.body).not.toHaveProperty('result');
    expect(await bothOrganizations()).toEqual(before);
  });

  it("refuses A's division or user when B creates or changes a user, group or division", async () => {
    const before = await bothOrganizations();
    const res = await t.call(b.apiToken, 'POST', '/API/v3/users', {
      username: 'b-user-in-a-division',
      firstName: 'B',
      lastName: 'User',
      userType: 'UT_PARTICIPANT',
      email: 'b@example.com',
      divisionId: aDivision,
    });
    const moved = await t.call(b.apiToken, 'PUT', `/API/v3/users/${b.userId}`, { divisionId: aDivision });
    const group = await t.call(b.apiToken, 'POST', '/API/v3/groups', { name: 'x', divisionId: aDivision });
    const division = await t.call(b.apiToken, 'POST', '/API/v3/divisions', {
      name: 'x',
      divisionAdmins: [aUser.userId],
    });
    for (const refused of [res, moved, group, division]) {
      expect(refused.status).toBe(400);
      expect(refused.body.meta.error.errorCode).toBe('FW_VAL_1');
    }
    expect(res.body.meta.error.errorMessage).toContain('divisionId');
    expect(moved.body.meta.error.errorMessage).toContain('divisionId');
    expect(group.body.meta.error.errorMessage).toContain('divisionId');
    expect(division.body.meta.error.errorMessage).toContain('divisionAdmins');
    // No user, group or division made in B, B's administrator not moved, nothing of A touched.
    expect(await bothOrganizations()).toEqual(before);
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
