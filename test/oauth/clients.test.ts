import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { accessToken, bearerCall, createClient } from './oauth-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function participantToken(adminToken: string): Promise<{ userId: string; token: string }> {
  const user = await t.call(adminToken, 'POST', '/API/v3/users', {
    username: `p-${Math.random().toString(36).slice(2)}`,
    firstName: 'Pat',
    lastName: 'Participant',
    userType: 'UT_PARTICIPANT',
    email: 'pat@example.com',
  });
  const userId = user.body.result.id as string;
  const token = await t.call(adminToken, 'POST', `/API/v3/users/${userId}/apitoken`);
  return { userId, token: token.body.result.apiToken };
}

describe('/API/v3/oauth-clients', () => {
  it('registers a client acting as the caller, shows its secret once and stores only a hash', async () => {
    const org = await t.newOrganization();
    const created = await t.call(org.apiToken, 'POST', '/API/v3/oauth-clients', {
      name: 'Nightly export',
      scopes: ['read:surveys', 'read:survey_responses'],
    });
    expect(created.status).toBe(200);
    const { clientId, clientSecret } = created.body.result;
    expect(clientId).toMatch(/^[0-9a-f]{32}$/);
    expect(clientSecret).toMatch(/^[A-Za-z0-9]{64}$/);

    const listed = await t.call(org.apiToken, 'GET', '/API/v3/oauth-clients');
    expect(listed.body.result).toEqual({
      elements: [
        {
          clientId,
          name: 'Nightly export',
          userId: org.userId,
          scopes: ['read:surveys', 'read:survey_responses'],
          creationDate: expect.stringMatching(/Z$/),
        },
      ],
      nextPage: null,
    });
    const row = await t.database.db
      .selectFrom('oauth_clients')
      .selectAll()
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(clientSecret);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('acts as another user of the organisation when asked; never as one of another organisation', async () => {
    const org = await t.newOrganization();
    const other = await t.newOrganization();
    const { userId } = await participantToken(org.apiToken);
    const client = await createClient(t, org.apiToken, ['read:users'], { userId });
    const token = await accessToken(t, client);
    const whoami = await bearerCall(t, token, 'GET', '/API/v3/whoami');
    expect(whoami.body.result).toMatchObject({ userId, accountType: 'UT_PARTICIPANT' });

    const foreign = await t.call(org.apiToken, 'POST', '/API/v3/oauth-clients', {
      name: 'x',
      userId: other.userId,
      scopes: ['manage:all'],
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.meta.error.errorCode).toBe('FW_USR_1');
  });

  it('is for brand administrators only', async () => {
    const org = await t.newOrganization();
    const { token } = await participantToken(org.apiToken);
    for (const [method, url, body] of [
      ['GET', '/API/v3/oauth-clients', undefined],
      ['POST', '/API/v3/oauth-clients', { name: 'x', scopes: ['manage:all'] }],
      ['DELETE', '/API/v3/oauth-clients/0123456789abcdef0123456789abcdef', undefined],
    ] as const) {
      const res = await t.call(token, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.meta.error.errorCode).toBe('QMST_2.1');
    }
  });

  it('refuses unknown scopes and an empty list with 400 naming the field', async () => {
    const org = await t.newOrganization();
    for (const scopes of [['read:everything'], [], 'manage:all']) {
      const res = await t.call(org.apiToken, 'POST', '/API/v3/oauth-clients', { name: 'x', scopes });
      expect(res.status).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain('scopes');
    }
  });

  it("an organisation cannot see or delete another's clients", async () => {
    const a = await t.newOrganization();
    const b = await t.newOrganization();
    const client = await createClient(t, a.apiToken, ['manage:all']);
    expect((await t.call(b.apiToken, 'GET', '/API/v3/oauth-clients')).body.result.elements).toEqual([]);
    const res = await t.call(b.apiToken, 'DELETE', `/API/v3/oauth-clients/${client.clientId}`);
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('FW_OAU_1');
    // Still there, and its tokens still work.
    expect((await bearerCall(t, await accessToken(t, client), 'GET', '/API/v3/whoami')).status).toBe(200);
  });

  it("an organisation's bearer token reads only its own organisation", async () => {
    const a = await t.newOrganization();
    const b = await t.newOrganization();
    const token = await accessToken(t, await createClient(t, a.apiToken, ['manage:all']));
    const list = await t.call(b.apiToken, 'POST', `/API/v3/directories/${b.directoryId}/mailinglists`, {
      name: 'B only',
    });
    const res = await bearerCall(
      t,
      token,
      'GET',
      `/API/v3/directories/${b.directoryId}/mailinglists/${list.body.result.id}`,
    );
    expect(res.status).toBe(404);
  });
});
