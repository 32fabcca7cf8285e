import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * Spec 5.6 behind a TLS-terminating proxy: with `--trust-proxy` (FIELDWORK_TRUST_PROXY=1) the proxy's
 * X-Forwarded-For, -Proto and -Host count — the respondent's address recorded with a survey session, the
 * Secure flag of its cookie, URLs the API builds; without it the same headers change nothing. Over a real
 * socket on 127.0.0.1, as a proxy would connect. (Serving https directly, --tls-cert/--tls-key, is
 * test/cli/first-start.test.ts.)
 */
const FORWARDED = {
  'x-forwarded-for': '203.0.113.9',
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'surveys.example.com',
};

interface Served {
  t: TestApp;
  base: string;
  org: BootstrapResult;
  surveyId: string;
}

async function serve(trustProxy: boolean): Promise<Served> {
  // What `fieldwork serve --trust-proxy` reads; without the flag, the default.
  const config = readConfig(trustProxy ? { trustProxy: true } : {}, {});
  const t = await buildTestApp({ config: { trustProxy: config.trustProxy } });
  const org = await t.newOrganization();
  const surveyId = await importSmallSurvey(t, org.apiToken);
  const put = await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: true });
  expect(put.status).toBe(200);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, base: `http://127.0.0.1:${port}`, org, surveyId };
}

async function openSurvey(served: Served) {
  const res = await fetch(`${served.base}/jfe/form/${served.surveyId}`, { headers: FORWARDED });
  expect(res.status).toBe(200);
  const session = await served.t.database.db
    .selectFrom('engine_sessions')
    .select('ip_address')
    .where('survey_id', '=', served.surveyId)
    .executeTakeFirstOrThrow();
  return { cookie: res.headers.getSetCookie().join('\n'), ip: session.ip_address };
}

async function organizationBaseUrl(served: Served): Promise<string> {
  const res = await fetch(`${served.base}/API/v3/organizations/${served.org.brandId}`, {
    headers: { ...FORWARDED, 'x-api-token': served.org.apiToken },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { baseUrl: string } }).result.baseUrl;
}

it('--trust-proxy and FIELDWORK_TRUST_PROXY=1 turn it on; it is off by default', () => {
  expect(readConfig({ trustProxy: true }, {}).trustProxy).toBe(true);
  expect(readConfig({}, { FIELDWORK_TRUST_PROXY: '1' }).trustProxy).toBe(true);
  expect(readConfig({}, {}).trustProxy).toBe(false);
});

describe('behind a trusted proxy', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(true);
  });
  afterAll(() => served?.t.close());

  it('records the forwarded client address and marks the session cookie Secure', async () => {
    const { cookie, ip } = await openSurvey(served);
    expect(ip).toBe('203.0.113.9');
    expect(cookie).toMatch(/HttpOnly; SameSite=Lax; Secure/);
  });

  it('builds URLs from the forwarded scheme and host', async () => {
    expect(await organizationBaseUrl(served)).toBe('https://surveys.example.com');
  });
});

describe('without --trust-proxy', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(false);
  });
  afterAll(() => served?.t.close());

  it('records the connecting address and sets no Secure flag over plain http', async () => {
    const { cookie, ip } = await openSurvey(served);
    expect(ip).toBe('127.0.0.1');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).not.toContain('Secure');
  });

  it('builds URLs from the connection, not from forwarded headers', async () => {
    expect(await organizationBaseUrl(served)).toBe(served.base);
  });
});
