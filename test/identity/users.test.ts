import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { organizationRows } from '../helpers/rows.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
/** What a user call can change: compared before and after a refused one. */
const USER_TABLES = ['users', 'api_tokens', 'group_members'] as const;
const identityRows = (brandId: string) => organizationRows(t, brandId, [...USER_TABLES]);

let t: TestApp;
let admin: { apiToken: string; userId: string; brandId: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.newOrganization();
});
afterAll(() => t.close());

describe('GET /v3/users/{id}', () => {
  it('returns every field of spec 2.5 with its type', async () => {
    const res = await t.call(admin.apiToken, 'GET', `/API/v3/users/${admin.userId}`);
    expect(res.status).toBe(200);
    const user = res.body.result;
    expect(Object.keys(user).sort()).toEqual(
      [
        'id',
        'username',
        'email',
        'firstName',
        'lastName',
        'userType',
        'organizationId',
        'divisionId',
        'language',
        'accountStatus',
        'unsubscribed',
        'accountCreationDate',
        'accountExpirationDate',
        'passwordLastChangedDate',
        'passwordExpirationDate',
        'lastLoginDate',
        'responseCounts',
        'permissions',
      ].sort(),
    );
    expect(user.id).toMatch(/^UR_[A-Za-z0-9]{15}$/);
    for (const field of [
      'username',
      'email',
      'firstName',
      'lastName',
      'userType',
      'language',
      'accountStatus',
    ]) {
      expect(typeof user[field]).toBe('string');
    }
    expect(user.organizationId).toBe(admin.brandId);
    expect(user.userType).toBe('UT_BRANDADMIN');
    expect(user.accountStatus).toBe('active');
    expect(user.unsubscribed).toBe(false);
    expect(user.accountCreationDate).toMatch(ISO_Z);
    for (const field of [
      'divisionId',
      'accountExpirationDate',
      'passwordLastChangedDate',
      'passwordExpirationDate',
      'lastLoginDate',
    ]) {
      expect(user).toHaveProperty(field);
      expect(user[field] === null || typeof user[field] === 'string').toBe(true);
    }
    expect(user.responseCounts).toEqual({ auditable: 0, generated: 0, deleted: 0 });
    expect(user.permissions.siteIntercept.accountPermissions.administerSiteIntercept).toEqual({
      calculatedState: 'off',
      state: 'userType',
    });
    expect(user.permissions.controlPanel.accountPermissions.administerUsers.calculatedState).toBe('on');
  });

  it('answers 404 for a user that does not exist', async () => {
    const res = await t.call(admin.apiToken, 'GET', '/API/v3/users/UR_000000000000000');
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('FW_USR_1');
  });

  it("lets a participant read their own record but no one else's", async () => {
    const participant = await createUserWithToken(t, admin.apiToken);
    const own = await t.call(participant.token, 'GET', `/API/v3/users/${participant.userId}`);
    expect(own.status).toBe(200);
    expect(own.body.result.permissions.controlPanel.accountPermissions.administerUsers.calculatedState).toBe(
      'off',
    );
    const other = await t.call(participant.token, 'GET', `/API/v3/users/${admin.userId}`);
    expect(other.status).toBe(403);
    expect(other.body.meta.error.errorCode).toBe('QMST_2.1');
    expect(other.body).not.toHaveProperty('result');
  });

  // The caller's own record comes from the token lookup of the same request: never from an earlier one.
  it("shows the caller's own record as the previous call left it", async () => {
    const participant = await createUserWithToken(t, admin.apiToken);
    const before = await t.call(participant.token, 'GET', `/API/v3/users/${participant.userId}`);
    expect(before.body.result.firstName).toBe('Test');
    const changed = await t.call(admin.apiToken, 'PUT', `/API/v3/users/${participant.userId}`, {
      firstName: 'Renamed',
    });
    expect(changed.status).toBe(200);
    const after = await t.call(participant.token, 'GET', `/API/v3/users/${participant.userId}`);
    expect(after.body.result.firstName).toBe('Renamed');
    const whoami = await t.call(participant.token, 'GET', '/API/v3/whoami');
    expect(whoami.body.result.firstName).toBe('Renamed');
    const byAdmin = await t.call(admin.apiToken, 'GET', `/API/v3/users/${participant.userId}`);
    expect(byAdmin.body.result).toEqual(after.body.result);
  });
});

describe('GET /v3/users', () => {
  it('lists exactly the subset of spec 2.5, paged with an absolute nextPage', async () => {
    for (let i = 0; i < 3; i++) await createUserWithToken(t, admin.apiToken);
    const first = await t.call(admin.apiToken, 'GET', '/API/v3/users?pageSize=2');
    expect(first.status).toBe(200);
    expect(first.body.result.elements).toHaveLength(2);
    for (const element of first.body.result.elements) {
      expect(Object.keys(element).sort()).toEqual(
        [
          'id',
          'divisionId',
          'username',
          'firstName',
          'lastName',
          'userType',
          'email',
          'accountStatus',
        ].sort(),
      );
    }
    const next = new URL(first.body.result.nextPage);
    expect(next.protocol).toBe('http:');
    expect(next.searchParams.get('offset')).toBe('2');
    expect(next.searchParams.get('pageSize')).toBe('2');
    const seen = new Set(first.body.result.elements.map((e: { id: string }) => e.id));
    let url: string | null = first.body.result.nextPage;
    for (let guard = 0; url && guard < 10; guard++) {
      const page = await t.call(admin.apiToken, 'GET', new URL(url).pathname + new URL(url).search);
      for (const element of page.body.result.elements) seen.add(element.id);
      url = page.body.result.nextPage;
    }
    expect(url).toBeNull();
    const all = await t.call(admin.apiToken, 'GET', '/API/v3/users');
    expect(seen.size).toBe(all.body.result.elements.length);
    expect(all.body.result.nextPage).toBeNull();
  });

  it('builds nextPage from the forwarded host only when the proxy is trusted', async () => {
    const trusted = await buildTestApp({ config: { trustProxy: true } });
    try {
      const org = await trusted.newOrganization();
      await createUserWithToken(trusted, org.apiToken);
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'surveys.example.com' };
      const res = await trusted.call(org.apiToken, 'GET', '/API/v3/users?pageSize=1', undefined, headers);
      expect(res.body.result.nextPage).toBe('https://surveys.example.com/API/v3/users?pageSize=1&offset=1');
    } finally {
      await trusted.close();
    }
    const untrusted = await t.call(admin.apiToken, 'GET', '/API/v3/users?pageSize=1', undefined, {
      'x-forwarded-host': 'evil.example.com',
    });
    expect(untrusted.body.result.nextPage).not.toContain('evil.example.com');
  });
});

describe('creating, changing and deleting users', () => {
  it('creates a user that can then be read, changed and deleted', async () => {
    const created = await t.call(admin.apiToken, 'POST', '/API/v3/users', {
      username: 'jane.doe',
      password: 'a long enough password',
      firstName: 'Jane',
      lastName: 'Doe',
      userType: 'UT_PARTICIPANT',
      email: 'jane@example.com',
      language: 'de',
    });
    expect(created.status).toBe(200);
    expect(created.body.meta.httpStatus).toBe('200 - OK');
    const id = created.body.result.id;
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/users/${id}`);
    expect(read.body.result).toMatchObject({
      username: 'jane.doe',
      language: 'de',
      userType: 'UT_PARTICIPANT',
    });
    expect(read.body.result.passwordLastChangedDate).toMatch(ISO_Z);

    const changed = await t.call(admin.apiToken, 'PUT', `/API/v3/users/${id}`, {
      lastName: 'Roe',
      unsubscribed: true,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).not.toHaveProperty('result');
    const reread = await t.call(admin.apiToken, 'GET', `/API/v3/users/${id}`);
    expect(reread.body.result).toMatchObject({ lastName: 'Roe', firstName: 'Jane', unsubscribed: true });

    const duplicate = await t.call(admin.apiToken, 'POST', '/API/v3/users', {
      username: 'jane.doe',
      firstName: 'J',
      lastName: 'D',
      userType: 'UT_PARTICIPANT',
      email: 'j@example.com',
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.meta.error.errorCode).toBe('FW_USR_2');

    expect((await t.call(admin.apiToken, 'DELETE', `/API/v3/users/${id}`)).status).toBe(200);
    const gone = await t.call(admin.apiToken, 'GET', `/API/v3/users/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_USR_1');
  });

  it('refuses to leave the organization without an active brand administrator', async () => {
    const org = await t.newOrganization();
    const before = await identityRows(org.brandId);
    const demote = await t.call(org.apiToken, 'PUT', `/API/v3/users/${org.userId}`, {
      userType: 'UT_PARTICIPANT',
    });
    expect(demote.status).toBe(409);
    expect(demote.body.meta.error.errorCode).toBe('FW_USR_3');
    const remove = await t.call(org.apiToken, 'DELETE', `/API/v3/users/${org.userId}`);
    expect(remove.status).toBe(409);
    expect(remove.body.meta.error.errorCode).toBe('FW_USR_3');
    const still = await t.call(org.apiToken, 'GET', `/API/v3/users/${org.userId}`);
    expect(still.body.result.userType).toBe('UT_BRANDADMIN');
    expect(await identityRows(org.brandId)).toEqual(before);
  });

  it('does not let a participant manage users', async () => {
    const participant = await createUserWithToken(t, admin.apiToken);
    const before = await identityRows(admin.brandId);
    const create = await t.call(participant.token, 'POST', '/API/v3/users', {
      username: 'sneaky',
      firstName: 'S',
      lastName: 'N',
      userType: 'UT_BRANDADMIN',
      email: 's@example.com',
    });
    const promote = await t.call(participant.token, 'PUT', `/API/v3/users/${participant.userId}`, {
      userType: 'UT_BRANDADMIN',
    });
    const remove = await t.call(participant.token, 'DELETE', `/API/v3/users/${admin.userId}`);
    for (const refused of [create, promote, remove]) {
      expect(refused.status).toBe(403);
      expect(refused.body.meta.error.errorCode).toBe('QMST_2.1');
    }
    // No user made, none promoted, none removed.
    expect(await identityRows(admin.brandId)).toEqual(before);
    const self = await t.call(participant.token, 'GET', `/API/v3/users/${participant.userId}`);
    expect(self.body.result.userType).toBe('UT_PARTICIPANT');
  });

  it("stops a disabled user's token from working", async () => {
    const user = await createUserWithToken(t, admin.apiToken);
    expect((await t.call(user.token, 'GET', '/API/v3/whoami')).status).toBe(200);
    await t.call(admin.apiToken, 'PUT', `/API/v3/users/${user.userId}`, { accountStatus: 'disabled' });
    const res = await t.call(user.token, 'GET', '/API/v3/whoami');
    expect(res.status).toBe(401);
    expect(res.body.meta.error.errorCode).toBe('DCD_7');
  });
});

describe('API tokens (spec 5.3)', () => {
  it('makes the new token work at once and the old one fail on the very next call', async () => {
    const user = await createUserWithToken(t, admin.apiToken);
    const renewed = await t.call(user.token, 'POST', `/API/v3/users/${user.userId}/apitoken`);
    expect(renewed.status).toBe(200);
    const fresh = renewed.body.result.apiToken;
    expect(fresh).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(fresh).not.toBe(user.token);
    expect((await t.call(fresh, 'GET', '/API/v3/whoami')).status).toBe(200);
    const old = await t.call(user.token, 'GET', '/API/v3/whoami');
    expect(old.status).toBe(401);
    expect(old.body.meta.error.errorCode).toBe('DCD_7');
  });

  it('stores tokens only as hashes', async () => {
    const user = await createUserWithToken(t, admin.apiToken);
    const rows = await t.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(user.token);
  });

  it("does not let a participant renew another user's token", async () => {
    const user = await createUserWithToken(t, admin.apiToken);
    const before = await identityRows(admin.brandId);
    const res = await t.call(user.token, 'POST', `/API/v3/users/${admin.userId}/apitoken`);
    expect(res.status).toBe(403);
    expect(res.body.meta.error.errorCode).toBe('QMST_2.1');
    expect(res.body).not.toHaveProperty('result');
    expect(await identityRows(admin.brandId)).toEqual(before); // no token issued or revoked
    expect((await t.call(admin.apiToken, 'GET', '/API/v3/whoami')).status).toBe(200);
  });
});

describe('GET /v3/whoami', () => {
  it('describes the caller', async () => {
    const res = await t.call(admin.apiToken, 'GET', '/API/v3/whoami');
    expect(res.body.result).toEqual({
      brandId: admin.brandId,
      userId: admin.userId,
      userName: `admin@${admin.brandId}`,
      accountType: 'UT_BRANDADMIN',
      firstName: 'Brand',
      lastName: 'Administrator',
      email: `admin@${admin.brandId}.invalid`,
      datacenter: 'loc1',
    });
  });
});
