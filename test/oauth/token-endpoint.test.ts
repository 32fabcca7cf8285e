import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { accessToken, basic, bearerCall, type Client, createClient, tokenRequest } from './oauth-helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<TestApp['newOrganization']>>;
let client: Client;
beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  client = await createClient(t, org.apiToken, ['read:surveys', 'write:surveys', 'read:users']);
});
afterAll(() => t.close());

const grant = { grant_type: 'client_credentials' };

describe('POST /oauth2/token issues bearer tokens (client credentials)', () => {
  it('authenticates the client with HTTP Basic and grants all its scopes by default', async () => {
    const res = await tokenRequest(t, grant, { authorization: basic(client.clientId, client.clientSecret) });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^loc1\.[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'read:surveys write:surveys read:users',
    });
    const whoami = await bearerCall(t, res.body.access_token, 'GET', '/API/v3/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body.result).toMatchObject({ userId: org.userId, brandId: org.brandId });
  });

  it('authenticates the client with client_id and client_secret form fields, for fewer scopes', async () => {
    const res = await tokenRequest(t, {
      ...grant,
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'read:surveys',
    });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('read:surveys');
    const surveys = await bearerCall(t, res.body.access_token, 'GET', '/API/v3/surveys');
    expect(surveys.status).toBe(200);
    const create = await bearerCall(t, res.body.access_token, 'POST', '/API/v3/surveys', {});
    expect(create.status).toBe(403);
  });

  it('stores the token as a hash, never as issued', async () => {
    const token = await accessToken(t, client);
    const rows = await t.database.db.selectFrom('oauth_tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token.split('.')[1]);
  });
});

describe('the token endpoint answers RFC 6749 error bodies', () => {
  const expectError = (
    res: { status: number; body: unknown; headers: Record<string, unknown> },
    status: number,
    error: string,
  ) => {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error, error_description: expect.any(String) });
    expect(res.headers['cache-control']).toBe('no-store');
  };

  it('invalid_client (401, WWW-Authenticate: Basic) for a wrong secret, an unknown client or none at all', async () => {
    const attempts: Record<string, string>[] = [
      { authorization: basic(client.clientId, 'wrong') },
      { authorization: basic('0123456789abcdef0123456789abcdef', client.clientSecret) },
      { authorization: 'Basic !!!' },
      {},
    ];
    for (const headers of attempts) {
      const res = await tokenRequest(t, grant, headers);
      expectError(res, 401, 'invalid_client');
      expect(res.headers['www-authenticate']).toBe('Basic realm="fieldwork"');
    }
    const form = await tokenRequest(t, { ...grant, client_id: client.clientId, client_secret: 'nope' });
    expectError(form, 401, 'invalid_client');
  });

  it('unsupported_grant_type (400) for any grant but client_credentials', async () => {
    for (const grantType of ['password', 'authorization_code', 'refresh_token']) {
      const res = await tokenRequest(
        t,
        { grant_type: grantType },
        { authorization: basic(client.clientId, client.clientSecret) },
      );
      expectError(res, 400, 'unsupported_grant_type');
    }
  });

  it('invalid_scope (400) for an unknown scope or one the client was not given', async () => {
    const auth = { authorization: basic(client.clientId, client.clientSecret) };
    expectError(await tokenRequest(t, { ...grant, scope: 'read:everything' }, auth), 400, 'invalid_scope');
    expectError(
      await tokenRequest(t, { ...grant, scope: 'read:surveys manage:all' }, auth),
      400,
      'invalid_scope',
    );
    expectError(await tokenRequest(t, { ...grant, scope: 'write:users' }, auth), 400, 'invalid_scope');
  });

  it('invalid_request (400): no grant_type, a parameter twice, two ways of authenticating, a JSON body', async () => {
    const auth = { authorization: basic(client.clientId, client.clientSecret) };
    expectError(await tokenRequest(t, {}, auth), 400, 'invalid_request');
    expectError(
      await tokenRequest(t, 'grant_type=client_credentials&scope=read:surveys&scope=read:users', auth),
      400,
      'invalid_request',
    );
    expectError(
      await tokenRequest(
        t,
        { ...grant, client_id: client.clientId, client_secret: client.clientSecret },
        auth,
      ),
      400,
      'invalid_request',
    );
    // Text no database stores (a NUL) is refused at the boundary, in the endpoint's own words.
    expectError(
      await tokenRequest(t, 'grant_type=client_credentials&client_id=%00&client_secret=x'),
      400,
      'invalid_request',
    );
    const json = await t.app.inject({
      method: 'POST',
      url: '/oauth2/token',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(grant),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({
      error: 'invalid_request',
      error_description: expect.stringContaining('x-www-form-urlencoded'),
    });
  });

  it('a client whose user was deleted is gone with it', async () => {
    const user = await t.call(org.apiToken, 'POST', '/API/v3/users', {
      username: `robot-${Date.now()}`,
      firstName: 'Ro',
      lastName: 'Bot',
      userType: 'UT_PARTICIPANT',
      email: 'robot@example.com',
    });
    const robot = await createClient(t, org.apiToken, ['read:surveys'], { userId: user.body.result.id });
    const token = await accessToken(t, robot);
    expect((await bearerCall(t, token, 'GET', '/API/v3/surveys')).status).toBe(200);
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/users/${user.body.result.id}`)).status).toBe(200);
    expect((await bearerCall(t, token, 'GET', '/API/v3/surveys')).status).toBe(401);
    const res = await tokenRequest(t, grant, { authorization: basic(robot.clientId, robot.clientSecret) });
    expectError(res, 401, 'invalid_client');
  });
});
