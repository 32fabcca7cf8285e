import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { familyOf, SCOPE_FAMILIES } from '../../src/http/scopes.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { accessToken, bearerCall, type Client, createClient } from './oauth-helpers.js';

const clock = manualClock('2026-03-01T09:00:00Z');
let t: TestApp;
let org: Awaited<ReturnType<TestApp['newOrganization']>>;
let client: Client;
beforeAll(async () => {
  t = await buildTestApp({ clock });
  // Target audience: the contacts-in-a-list calls are its own (spec 1.7), so no 403 comes from there.
  org = await t.newOrganization({ targetAudience: true });
  client = await createClient(t, org.apiToken, ['manage:all']);
});
afterAll(() => t.close());

/** Every authenticated route: what the v3 plugins registered, but the OpenAPI document. */
const apiRoutes = () =>
  t.app.registeredRoutes.filter(
    (route) => /^\/API(\/API)?\/v3\//.test(route.url) && route.url !== '/API/v3/openapi.json',
  );
const concrete = (url: string) => url.replace(/:\w+/g, 'x');
const neededScope = (method: string, url: string) =>
  `${method === 'GET' ? 'read' : 'write'}:${familyOf(url) as string}`;

describe('every /API/v3 route belongs to a scope family', () => {
  it('finds a family for each registered route, and each family for some route', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes.filter((route) => familyOf(route.url) === undefined);
    expect(missing).toEqual([]);
    const used = new Set(routes.map((route) => familyOf(route.url)));
    expect([...SCOPE_FAMILIES].filter((family) => !used.has(family))).toEqual([]);
  });

  it('puts sub-resources in their own family by the longest prefix', () => {
    expect(familyOf('/API/v3/surveys/:surveyId')).toBe('surveys');
    expect(familyOf('/API/v3/surveys/:surveyId/export-responses/:progressId')).toBe('survey_responses');
    expect(familyOf('/API/API/v3/surveys/:surveyId/responses/:responseId')).toBe('survey_responses');
    expect(familyOf('/API/v3/directories/:directoryId/mailinglists/:mailingListId/contacts')).toBe(
      'mailing_list_contacts',
    );
    expect(familyOf('/API/v3/directories/:directoryId/mailinglists')).toBe('mailing_lists');
    expect(familyOf('/API/v3/surveysx')).toBeUndefined();
  });
});

describe('an OAuth token calls only what its scopes allow', () => {
  it('refuses every route, by any method, with 403 in the envelope when the scope is missing', async () => {
    // A token of every scope but one family's: each route of that family is refused, naming the scope.
    const tokens = new Map<string, string>();
    for (const family of SCOPE_FAMILIES) {
      const others = SCOPE_FAMILIES.filter((f) => f !== family).flatMap((f) => [`read:${f}`, `write:${f}`]);
      const scoped = await createClient(t, org.apiToken, others);
      tokens.set(family, await accessToken(t, scoped));
    }
    for (const route of apiRoutes()) {
      const family = familyOf(route.url) as string;
      const res = await bearerCall(t, tokens.get(family) as string, route.method, concrete(route.url));
      const needed = neededScope(route.method, route.url);
      expect(res.status, `${route.method} ${route.url}`).toBe(403);
      expect(res.body.meta.error).toEqual({
        errorCode: 'QMST_2.1',
        errorMessage: `The operation is forbidden: the access token lacks the scope ${needed}.`,
      });
      expect(res.headers['www-authenticate']).toBe(
        `Bearer realm="fieldwork", error="insufficient_scope", scope="${needed}"`,
      );
    }
  });

  it('lets each route through with its own read or write scope, and nothing more', async () => {
    const tokens = new Map<string, string>();
    for (const family of SCOPE_FAMILIES)
      for (const mode of ['read', 'write']) {
        const scoped = await createClient(t, org.apiToken, [`${mode}:${family}`]);
        tokens.set(`${mode}:${family}`, await accessToken(t, scoped));
      }
    for (const route of apiRoutes()) {
      const needed = neededScope(route.method, route.url);
      const allowed = await bearerCall(t, tokens.get(needed) as string, route.method, concrete(route.url));
      expect(allowed.status, `${route.method} ${route.url} with ${needed}`).not.toBe(403);
      const other = needed.startsWith('read:')
        ? needed.replace('read:', 'write:')
        : needed.replace('write:', 'read:');
      const refused = await bearerCall(t, tokens.get(other) as string, route.method, concrete(route.url));
      expect(refused.status, `${route.method} ${route.url} with ${other}`).toBe(403);
    }
  });

  it('HEAD needs the read scope, like GET', async () => {
    const reader = await accessToken(t, await createClient(t, org.apiToken, ['read:surveys']));
    const writer = await accessToken(t, await createClient(t, org.apiToken, ['write:surveys']));
    const head = (token: string) =>
      t.app.inject({ method: 'HEAD', url: '/API/v3/surveys', headers: { authorization: `Bearer ${token}` } });
    expect((await head(reader)).statusCode).toBe(200);
    expect((await head(writer)).statusCode).toBe(403);
  });

  it('manage:all covers every family; an API token needs no scope', async () => {
    const token = await accessToken(t, client);
    for (const url of ['/API/v3/surveys', '/API/v3/users', '/API/v3/groups', '/API/v3/oauth-clients'])
      expect((await bearerCall(t, token, 'GET', url)).status, url).toBe(200);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/oauth-clients')).status).toBe(200);
  });

  it("a client made by an OAuth caller gets no scope beyond the caller's", async () => {
    const admin = await accessToken(
      t,
      await createClient(t, org.apiToken, ['write:oauth_clients', 'read:surveys']),
    );
    const within = await bearerCall(t, admin, 'POST', '/API/v3/oauth-clients', {
      name: 'narrower',
      scopes: ['read:surveys'],
    });
    expect(within.status).toBe(200);
    const beyond = await bearerCall(t, admin, 'POST', '/API/v3/oauth-clients', {
      name: 'wider',
      scopes: ['manage:all'],
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.meta.error.errorCode).toBe('QMST_2.1');
  });
});

describe('expiry and revocation', () => {
  it('a token works for an hour, then answers 401 FW_TOK_1 in the envelope', async () => {
    const token = await accessToken(t, client);
    clock.advance(3599_000);
    expect((await bearerCall(t, token, 'GET', '/API/v3/whoami')).status).toBe(200);
    clock.advance(1_000);
    const expired = await bearerCall(t, token, 'GET', '/API/v3/whoami');
    expect(expired.status).toBe(401);
    expect(expired.body.meta).toMatchObject({
      httpStatus: '401 - Unauthorized',
      error: { errorCode: 'FW_TOK_1', errorMessage: expect.stringContaining('expired') },
    });
    expect(expired.headers['www-authenticate']).toBe('Bearer realm="fieldwork", error="invalid_token"');
    // A new token works again.
    expect((await bearerCall(t, await accessToken(t, client), 'GET', '/API/v3/whoami')).status).toBe(200);
  });

  it('deleting the client revokes its tokens at once: 401 DCD_7', async () => {
    const doomed = await createClient(t, org.apiToken, ['read:users']);
    const token = await accessToken(t, doomed);
    expect((await bearerCall(t, token, 'GET', '/API/v3/whoami')).status).toBe(200);
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/oauth-clients/${doomed.clientId}`)).status).toBe(
      200,
    );
    const revoked = await bearerCall(t, token, 'GET', '/API/v3/whoami');
    expect(revoked.status).toBe(401);
    expect(revoked.body.meta.error).toEqual({
      errorCode: 'DCD_7',
      errorMessage: 'Unrecognized access token.',
    });
  });

  it('a token of a disabled user stops working; a made-up one was never known', async () => {
    const user = await t.call(org.apiToken, 'POST', '/API/v3/users', {
      username: `bot-${Date.now()}`,
      firstName: 'B',
      lastName: 'Ot',
      userType: 'UT_BRANDADMIN',
      email: 'bot@example.com',
    });
    const userId = user.body.result.id as string;
    const token = await accessToken(t, await createClient(t, org.apiToken, ['read:users'], { userId }));
    expect((await bearerCall(t, token, 'GET', '/API/v3/whoami')).body.result.userId).toBe(userId);
    await t.call(org.apiToken, 'PUT', `/API/v3/users/${userId}`, { accountStatus: 'disabled' });
    expect((await bearerCall(t, token, 'GET', '/API/v3/whoami')).status).toBe(401);
    const madeUp = `loc1.${'A'.repeat(43)}`;
    expect((await bearerCall(t, madeUp, 'GET', '/API/v3/whoami')).body.meta.error.errorCode).toBe('DCD_7');
  });
});
