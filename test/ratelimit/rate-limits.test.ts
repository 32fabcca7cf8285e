import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { startExportWorker, waitForExport } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { callMany, expectRefused, rateHeaders, remainingValues, upTo } from './rate-limit-helpers.js';

/**
 * Issue 17 item 4 on one node (buckets in process memory): the organisation's budget, the lower budgets of
 * COMPAT.md's endpoint classes, the headers and the 429. The clock stands still unless a test moves it, so
 * counts are exact and no test waits for a bucket to drain.
 */
const clock = manualClock('2026-03-01T09:00:00Z');
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ clock, config: { rateLimit: 3000 } });
});
afterAll(async () => {
  await t.close();
});

describe('the headers and the 429', () => {
  it('answers RateLimit-* and X-RateLimit-* on every call, and 429 FW_RATE_1 with Retry-After past the limit', async () => {
    const org = await t.newOrganization();
    const first = await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions');
    expect(first.status).toBe(200);
    // 120 a minute: one drains every 500 ms, so the bucket is empty again half a second after one call.
    expect(rateHeaders(first)).toEqual({ limit: '120', remaining: '119', reset: '1', retryAfter: undefined });
    expect(first.headers['x-ratelimit-limit']).toBe('120');
    expect(first.headers['x-ratelimit-remaining']).toBe('119');
    expect(first.headers['x-ratelimit-reset']).toBe('1');

    const rest = await callMany(t, org.apiToken, 'GET', '/API/v3/eventsubscriptions', 119);
    expect(rest.map((res) => res.status)).toEqual(Array(119).fill(200));
    expect(remainingValues(rest)).toEqual(upTo(119));

    const refused = await t.call(org.apiToken, 'DELETE', '/API/v3/eventsubscriptions/SUB_000000000000000');
    expectRefused(refused, 'event subscription calls', 120);
    expect(rateHeaders(refused)).toEqual({ limit: '120', remaining: '0', reset: '1', retryAfter: '1' });
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('a call of a class does not count against the general budget, nor a general call against a class', async () => {
    const org = await t.newOrganization();
    await callMany(t, org.apiToken, 'GET', '/API/v3/eventsubscriptions', 120);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions')).status).toBe(429);
    const whoami = await t.call(org.apiToken, 'GET', '/API/v3/whoami');
    expect(whoami.status).toBe(200);
    expect(rateHeaders(whoami)).toMatchObject({ limit: '3000', remaining: '2999' });
  });

  it('a refusal is per organisation: another organisation calls on', async () => {
    const busy = await t.newOrganization();
    const other = await t.newOrganization();
    await callMany(t, busy.apiToken, 'GET', '/API/v3/eventsubscriptions', 121);
    const res = await t.call(other.apiToken, 'GET', '/API/v3/eventsubscriptions');
    expect(res.status).toBe(200);
    expect(rateHeaders(res).remaining).toBe('119');
  });

  it('calls that fail authentication count against no organisation', async () => {
    const org = await t.newOrganization();
    const lastChanged = org.apiToken.slice(0, -1) + (org.apiToken.endsWith('0') ? '1' : '0');
    for (const token of [undefined, 'x'.repeat(40), lastChanged]) {
      const res = await t.call(token, 'GET', '/API/v3/whoami');
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers['ratelimit-limit']).toBeUndefined();
    }
    const res = await t.call(org.apiToken, 'GET', '/API/v3/whoami');
    expect(rateHeaders(res).remaining).toBe('2999');
  });

  it('the bucket leaks: a refused caller gets one call in per interval, not a new minute at once', async () => {
    const org = await t.newOrganization();
    await callMany(t, org.apiToken, 'GET', '/API/v3/eventsubscriptions', 120);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions')).status).toBe(429);
    clock.advance(499);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions')).status).toBe(429);
    clock.advance(1);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions')).status).toBe(200);
    expect((await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions')).status).toBe(429);
    clock.advance(60_000);
    const res = await t.call(org.apiToken, 'GET', '/API/v3/eventsubscriptions');
    expect(rateHeaders(res).remaining).toBe('119');
  });
});

describe('response exports: start 100, progress 1000, file 100 a minute, each its own bucket', () => {
  let worker: JobWorker;
  beforeAll(() => {
    worker = startExportWorker(t);
  });
  afterAll(async () => {
    await worker.stop();
  });

  it('polling progress in a tight loop leaves the download, new exports and the rest of the API alone', async () => {
    const org = await t.newOrganization();
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const base = `/API/v3/surveys/${surveyId}/export-responses`;
    const started = await t.call(org.apiToken, 'POST', base, { format: 'csv' });
    expect(started.status).toBe(200);
    const progressUrl = `${base}/${started.body.result.progressId}`;
    const { last } = await waitForExport(t, org.apiToken, progressUrl);
    expect(last.body.result.status).toBe('complete');
    const polled = Number(rateHeaders(last).limit) - Number(rateHeaders(last).remaining);

    // The R and Python clients poll as fast as they can: the rest of the minute's 1000, on both spellings.
    const legacyUrl = `/API/v3/responseexports/${started.body.result.progressId}`;
    const current = await callMany(t, org.apiToken, 'GET', progressUrl, 500 - polled);
    const legacy = await callMany(t, org.apiToken, 'GET', legacyUrl, 500);
    expect([...current, ...legacy].every((res) => res.status === 200)).toBe(true);
    expectRefused(await t.call(org.apiToken, 'GET', legacyUrl), 'response export progress calls', 1000);

    const file = await t.call(org.apiToken, 'GET', `${progressUrl}/file`);
    expect(file.status).toBe(200);
    expect(rateHeaders(file)).toMatchObject({ limit: '100', remaining: '99' });
    const again = await t.call(org.apiToken, 'POST', base, { format: 'csv' });
    expect(again.status).toBe(200);
    expect(rateHeaders(again)).toMatchObject({ limit: '100', remaining: '98' });
    // The survey's upload and this call are the organisation's only general calls.
    const whoami = await t.call(org.apiToken, 'GET', '/API/v3/whoami');
    expect(rateHeaders(whoami)).toMatchObject({ limit: '3000', remaining: '2998' });
  });

  it('refuses the 101st export start of a minute, on either spelling', async () => {
    const org = await t.newOrganization();
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const starts = await callMany(t, org.apiToken, 'POST', '/API/v3/responseexports', 50, {
      surveyId,
      format: 'json',
    });
    const current = `/API/v3/surveys/${surveyId}/export-responses`;
    starts.push(...(await callMany(t, org.apiToken, 'POST', current, 50, { format: 'json' })));
    expect(starts.map((res) => res.status)).toEqual(Array(100).fill(200));
    expectRefused(
      await t.call(org.apiToken, 'POST', current, { format: 'json' }),
      'response export starts',
      100,
    );
    const legacy = await t.call(org.apiToken, 'POST', '/API/v3/responseexports', {
      surveyId,
      format: 'json',
    });
    expectRefused(legacy, 'response export starts', 100);
    // One start drains every 600 ms.
    expect(legacy.headers['retry-after']).toBe('1');
  });
});

describe('--rate-limit 0', () => {
  it('turns every limit off: no headers, no 429', async () => {
    const off = await buildTestApp({ clock, config: { rateLimit: 0 }, database: t.database });
    try {
      const org = await off.newOrganization();
      const calls = await callMany(off, org.apiToken, 'GET', '/API/v3/eventsubscriptions', 130);
      expect(calls.map((res) => res.status)).toEqual(Array(130).fill(200));
      expect(
        calls.some((res) => 'ratelimit-limit' in res.headers || 'x-ratelimit-limit' in res.headers),
      ).toBe(false);
    } finally {
      await off.app.close();
    }
  });
});
