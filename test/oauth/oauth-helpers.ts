import { expect } from 'vitest';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

export interface Client {
  clientId: string;
  clientSecret: string;
}

/** Registers a client through the API with an administrator's API token. */
export async function createClient(
  t: TestApp,
  adminToken: string,
  scopes: string[],
  extra: { userId?: string; name?: string } = {},
): Promise<Client> {
  const res = await t.call(adminToken, 'POST', '/API/v3/oauth-clients', {
    name: 'Test client',
    scopes,
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as Client;
}

export const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** POSTs a form to the token endpoint, as an OAuth client library does. */
export async function tokenRequest(
  t: TestApp,
  form: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const payload = typeof form === 'string' ? form : new URLSearchParams(form).toString();
  const raw = await t.app.inject({
    method: 'POST',
    url: '/oauth2/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload,
  });
  return { status: raw.statusCode, body: raw.json(), headers: raw.headers, raw };
}

/** A bearer token for the client (HTTP Basic), optionally for fewer scopes than it has. */
export async function accessToken(t: TestApp, client: Client, scope?: string): Promise<string> {
  const res = await tokenRequest(
    t,
    { grant_type: 'client_credentials', ...(scope ? { scope } : {}) },
    { authorization: basic(client.clientId, client.clientSecret) },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.access_token as string;
}

/** A v3 call with `Authorization: Bearer`, and no X-API-TOKEN. */
export function bearerCall(
  t: TestApp,
  token: string,
  method: string,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return t.call(undefined, method, url, body, { authorization: `Bearer ${token}`, ...headers });
}
