import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

const clock = manualClock('2026-01-01T00:00:00Z');
let t: TestApp;
let org: { apiToken: string; brandId: string };
const URL_OK = 'http://127.0.0.1:9/hook';

beforeAll(async () => {
  t = await buildTestApp({ clock, config: { allowPrivateTargets: true } });
  org = await t.newOrganization();
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = org.apiToken) =>
  t.call(token, 'POST', '/API/v3/eventsubscriptions', body);

describe('POST /v3/eventsubscriptions (spec 4.1)', () => {
  it('creates a subscription, answers 200 with a SUB_ id, and never returns the sharedKey', async () => {
    const res = await create({
      publicationUrl: 'https://hooks.example.com/fieldwork',
      topics: 'surveyengine.completedResponse.SV_abcdefghij12345',
      encrypt: true,
      sharedKey: '0123456789abcdef',
    });
    expect(res.status).toBe(200);
    expect(res.body.meta.httpStatus).toBe('200 - OK');
    const id = res.body.result.id as string;
    expect(id).toMatch(/^SUB_[A-Za-z0-9]{15}$/);

    const got = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}`);
    expect(got.body.result).toEqual({
      id,
      scope: org.brandId,
      topics: 'surveyengine.completedResponse.SV_abcdefghij12345',
      publicationUrl: 'https://hooks.example.com/fieldwork',
      encrypted: true,
      successfulCalls: 0,
      status: 'active',
    });
    expect(got.raw.body).not.toContain('0123456789abcdef');
    const list = await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions');
    expect(list.raw.body).not.toContain('0123456789abcdef');
    expect(list.raw.body).not.toContain('sharedKey');
  });

  it('takes a caller-supplied subscriptionId, once per organisation', async () => {
    const first = await create({ subscriptionId: 'my-hook-1', publicationUrl: URL_OK, topics: '*' });
    expect(first.body.result.id).toBe('my-hook-1');
    const again = await create({ subscriptionId: 'my-hook-1', publicationUrl: URL_OK, topics: '*' });
    expect(again.status).toBe(400);
    expect(again.body.meta.error.errorMessage).toContain('subscriptionId');
    // Another organisation may use the same id: it learns nothing about this one.
    const other = await t.newOrganization();
    const theirs = await create(
      { subscriptionId: 'my-hook-1', publicationUrl: URL_OK, topics: '*' },
      other.apiToken,
    );
    expect(theirs.status).toBe(200);
  });

  it.each([
    ['publicationUrl', { topics: '*' }],
    ['publicationUrl', { publicationUrl: 'not a url', topics: '*' }],
    ['publicationUrl', { publicationUrl: '/relative/path', topics: '*' }],
    ['publicationUrl', { publicationUrl: 'ftp://example.com/x', topics: '*' }],
    ['publicationUrl', { publicationUrl: 'https://user:pw@example.com/x', topics: '*' }],
    ['publicationUrl', { publicationUrl: 42, topics: '*' }],
    ['topics', { publicationUrl: URL_OK }],
    ['topics', { publicationUrl: URL_OK, topics: 'nonsense' }],
    ['topics', { publicationUrl: URL_OK, topics: 'controlpanel.activate*' }],
    ['topics', { publicationUrl: URL_OK, topics: 'surveyengine.completedResponse.SV_bad' }],
    ['encrypt', { publicationUrl: URL_OK, topics: '*', encrypt: 'yes' }],
    ['sharedKey', { publicationUrl: URL_OK, topics: '*', encrypt: true }],
    ['sharedKey', { publicationUrl: URL_OK, topics: '*', encrypt: true, sharedKey: 'short' }],
    ['sharedKey', { publicationUrl: URL_OK, topics: '*', encrypt: true, sharedKey: 'x'.repeat(24) }],
    ['sharedKey', { publicationUrl: URL_OK, topics: '*', encrypt: true, sharedKey: 'é'.repeat(12) }],
    ['subscriptionId', { publicationUrl: URL_OK, topics: '*', subscriptionId: 'has spaces' }],
  ])('answers 400 naming %s for %j', async (field, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toContain(field);
    expect(res.body.result).toBeUndefined();
  });

  it('accepts a 32-byte key for AES-256, any key without encryption, and ignores unknown fields', async () => {
    expect(
      (await create({ publicationUrl: URL_OK, topics: '*', encrypt: true, sharedKey: 'k'.repeat(32) }))
        .status,
    ).toBe(200);
    expect((await create({ publicationUrl: URL_OK, topics: 'threesixty.*', sharedKey: 'k' })).status).toBe(
      200,
    );
    expect((await create({ publicationUrl: URL_OK, topics: '*', somethingElse: 1 })).status).toBe(200);
    // Bytes, not characters: eight two-byte characters make a 16-byte AES-128 key.
    expect(
      (await create({ publicationUrl: URL_OK, topics: '*', encrypt: true, sharedKey: 'é'.repeat(8) })).status,
    ).toBe(200);
  });
});

describe('listing and deleting', () => {
  it('pages with offset and nextPage, deletes one, then deletes all of the organisation’s', async () => {
    const mine = await t.newOrganization();
    const other = await t.newOrganization();
    const otherSub = (await create({ publicationUrl: URL_OK, topics: '*' }, other.apiToken)).body.result.id;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create({ publicationUrl: URL_OK, topics: '*' }, mine.apiToken)).body.result.id);
      // The list is in creation order (created_at, then id): two made in the same millisecond would
      // come back in id order, so the clock moves on.
      clock.advance(1000);
    }

    const first = await t.call(mine.apiToken, 'GET', '/API/v3/eventsubscriptions?pageSize=2');
    expect(first.body.result.elements.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 2));
    const next = new URL(first.body.result.nextPage);
    expect(next.searchParams.get('offset')).toBe('2');
    const second = await t.call(mine.apiToken, 'GET', `${next.pathname}${next.search}`);
    expect(second.body.result).toMatchObject({ nextPage: null });
    expect(second.body.result.elements.map((e: { id: string }) => e.id)).toEqual(ids.slice(2));

    const removed = await t.call(mine.apiToken, 'DELETE', `/API/v3/eventsubscriptions/${ids[0]}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ meta: { httpStatus: '200 - OK', requestId: expect.any(String) } });
    const gone = await t.call(mine.apiToken, 'GET', `/API/v3/eventsubscriptions/${ids[0]}`);
    expect(gone.status).toBe(404);

    const all = await t.call(mine.apiToken, 'DELETE', '/API/v3/eventsubscriptions');
    expect(all.status).toBe(200);
    const empty = await t.call(mine.apiToken, 'GET', '/API/v3/eventsubscriptions/');
    expect(empty.body.result).toEqual({ elements: [], nextPage: null });
    // Only the caller's organisation lost its subscriptions.
    expect((await t.call(other.apiToken, 'GET', `/API/v3/eventsubscriptions/${otherSub}`)).status).toBe(200);
  });

  it('answers 404 ESSG_2 with the real service message for an unknown id', async () => {
    const res = await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions/SUB_doesnotexist123');
    expect(res.status).toBe(404);
    expect(res.body.meta.error).toEqual({
      errorCode: 'ESSG_2',
      errorMessage: 'SUB_doesnotexist123 not found',
    });
  });
});

describe('who may call', () => {
  it('answers 403 to a non-administrator on every event subscription call', async () => {
    const sub = (await create({ publicationUrl: URL_OK, topics: '*' })).body.result.id;
    const { token } = await createUserWithToken(t, org.apiToken, 'UT_PARTICIPANT');
    const calls: [string, string, unknown?][] = [
      ['POST', '/API/v3/eventsubscriptions', { publicationUrl: URL_OK, topics: '*' }],
      ['GET', '/API/v3/eventsubscriptions'],
      ['DELETE', '/API/v3/eventsubscriptions'],
      ['GET', `/API/v3/eventsubscriptions/${sub}`],
      ['DELETE', `/API/v3/eventsubscriptions/${sub}`],
      ['GET', `/API/v3/eventsubscriptions/${sub}/deliveries`],
      ['POST', `/API/v3/eventsubscriptions/${sub}/deliveries/DL_x/retry`],
      ['POST', `/API/v3/eventsubscriptions/${sub}/deliveries/replay`, { since: '2026-01-01T00:00:00Z' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await t.call(token, method, url, body);
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.meta.error.errorCode).toBe('QMST_2.1');
    }
    expect((await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${sub}`)).status).toBe(200);
  });

  it('needs a token', async () => {
    const res = await t.call(undefined, 'GET', '/API/v3/eventsubscriptions');
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('ATP_2');
  });
});
