import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A token of organisation B can never read, change, retry or delete organisation A's event subscriptions
 * or their delivery log: every attempt answers 404 ESSG_2, exactly as for one that does not exist.
 */
let t: TestApp;
let a: { apiToken: string; brandId: string };
let b: { apiToken: string; brandId: string };
let aSub: string;

beforeAll(async () => {
  t = await buildTestApp({ config: { allowPrivateTargets: true } });
  a = await t.newOrganization();
  b = await t.newOrganization();
  const res = await t.call(a.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: 'https://a.example.com/hook',
    topics: '*',
    sharedKey: 'secret of A',
  });
  aSub = res.body.result.id;
});
afterAll(() => t.close());

describe("a token of organisation B against organisation A's event subscription", () => {
  const attempts: [string, () => string, unknown?][] = [
    ['GET', () => `/API/v3/eventsubscriptions/${aSub}`],
    ['DELETE', () => `/API/v3/eventsubscriptions/${aSub}`],
    ['GET', () => `/API/v3/eventsubscriptions/${aSub}/deliveries`],
    ['POST', () => `/API/v3/eventsubscriptions/${aSub}/deliveries/DL_aaaaaaaaaaaaaaa/retry`],
    ['POST', () => `/API/v3/eventsubscriptions/${aSub}/deliveries/replay`, { since: '2026-01-01T00:00:00Z' }],
  ];

  it.each(attempts)('%s %s answers 404 ESSG_2', async (method, url, body) => {
    const res = await t.call(b.apiToken, method, url(), body);
    expect(res.status).toBe(404);
    expect(res.body.meta.error).toEqual({ errorCode: 'ESSG_2', errorMessage: `${aSub} not found` });
  });

  it("lists none of A's subscriptions, and B's delete-all leaves A's in place", async () => {
    const list = await t.call(b.apiToken, 'GET', '/API/v3/eventsubscriptions');
    expect(list.body.result.elements).toEqual([]);
    expect((await t.call(b.apiToken, 'DELETE', '/API/v3/eventsubscriptions')).status).toBe(200);
    const still = await t.call(a.apiToken, 'GET', `/API/v3/eventsubscriptions/${aSub}`);
    expect(still.status).toBe(200);
    expect(still.body.result.scope).toBe(a.brandId);
  });
});
