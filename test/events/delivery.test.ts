import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { recordEvent } from '../../src/events/record-event.js';
import { completedResponseTopic } from '../../src/events/topics.js';
import { pollUntil } from '../helpers/poll.js';
import type { TestApp } from '../helpers/test-app.js';
import { type Responder, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  completedPayload,
  emit,
  eventsTestApp,
  receiverDecrypt,
  receiverHmac,
  SURVEY_ID,
  testWorker,
} from './event-fixtures.js';

let t: TestApp;
let clock: Awaited<ReturnType<typeof eventsTestApp>>['clock'];
let org: { brandId: string; apiToken: string };
let worker: DeliveryWorker;
const receivers: WebhookReceiver[] = [];
const TOPIC = completedResponseTopic(SURVEY_ID);

beforeAll(async () => {
  ({ t, clock } = await eventsTestApp());
  worker = testWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});
afterEach(async () => {
  // Each test gets a fresh organisation, so subscriptions of one test never see another's events.
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(respond?: Responder): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver(respond);
  receivers.push(started);
  return started;
}

async function subscribe(body: Record<string, unknown>): Promise<string> {
  org = await t.newOrganization();
  const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id;
}

const deliveryLog = async (subscriptionId: string) =>
  (await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${subscriptionId}/deliveries`)).body.result
    .elements;

describe('the message a receiver gets', () => {
  it('is the exact form body, with an HMAC-SHA512 of MSG the receiver can recompute, and signed headers', async () => {
    const r = await receiver();
    const key = 'a shared key of any length';
    await subscribe({ publicationUrl: r.url, topics: 'surveyengine.completedResponse.*', sharedKey: key });
    const eventId = await emit(t, org.brandId, TOPIC, completedPayload());
    expect(await worker.deliverDue()).toBe(1);

    expect(r.received).toHaveLength(1);
    const got = r.received[0];
    if (!got) throw new Error('nothing received');
    expect(got.method).toBe('POST');
    expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const msg = JSON.stringify({ ...completedPayload(), BrandID: org.brandId });
    const expectedBody = new URLSearchParams([
      ['Topic', `${org.brandId}.${TOPIC}`],
      ['MSG', msg],
      ['HMAC', receiverHmac(msg, key)],
    ]).toString();
    expect(got.body).toBe(expectedBody);
    expect([...got.form.keys()]).toEqual(['Topic', 'MSG', 'HMAC']);
    expect(got.form.get('HMAC')).toMatch(/^[0-9a-f]{128}$/);
    expect(JSON.parse(got.form.get('MSG') ?? '')).toEqual({ ...completedPayload(), BrandID: org.brandId });

    // Standard Webhooks: id stable per event, timestamp of the attempt, v1 signature over id.timestamp.body.
    expect(got.headers['webhook-id']).toBe(eventId);
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    expect(got.headers['webhook-timestamp']).toBe(String(timestamp));
    const signature = createHmac('sha256', Buffer.from(key))
      .update(`${eventId}.${timestamp}.${got.body}`)
      .digest('base64');
    expect(got.headers['webhook-signature']).toBe(`v1,${signature}`);
  });

  it.each([
    ['AES-128', '0123456789abcdef'],
    ['AES-256', '0123456789abcdef0123456789abcdef'],
  ])('with encrypt and a key for %s, MSG Base64-decodes and decrypts to the JSON payload', async (_, key) => {
    const r = await receiver();
    await subscribe({ publicationUrl: r.url, topics: TOPIC, encrypt: true, sharedKey: key });
    await emit(t, org.brandId, TOPIC, completedPayload(7));
    await worker.deliverDue();

    const form = r.received[0]?.form;
    const msg = form?.get('MSG') ?? '';
    expect(msg).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(form?.get('HMAC')).toBe(receiverHmac(msg, key));
    expect(JSON.parse(receiverDecrypt(msg, key))).toEqual({ ...completedPayload(7), BrandID: org.brandId });
  });

  it('carries no HMAC and no signature without a sharedKey', async () => {
    const r = await receiver();
    await subscribe({ publicationUrl: r.url, topics: '*' });
    const eventId = await emit(t, org.brandId, 'controlpanel.activateSurvey', {
      Status: 'Active',
      SurveyID: SURVEY_ID,
    });
    await worker.deliverDue();
    const got = r.received[0];
    expect([...(got?.form.keys() ?? [])]).toEqual(['Topic', 'MSG']);
    expect(got?.form.get('Topic')).toBe(`${org.brandId}.controlpanel.activateSurvey`);
    expect(got?.headers['webhook-id']).toBe(eventId);
    expect(got?.headers['webhook-signature']).toBeUndefined();
  });
});

describe('emission', () => {
  it('writes one delivery per matching subscription, in the caller’s transaction', async () => {
    const r = await receiver();
    org = await t.newOrganization();
    const topics = [
      'surveyengine.*',
      'surveyengine.completedResponse.*',
      TOPIC,
      completedResponseTopic('SV_zzzzzzzzzzzzzzz'),
      '*',
      'controlpanel.*',
    ];
    const ids: string[] = [];
    for (const pattern of topics) {
      const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
        publicationUrl: r.url,
        topics: pattern,
      });
      ids.push(res.body.result.id);
    }
    await emit(t, org.brandId, TOPIC, completedPayload());
    const counts = await Promise.all(ids.map(async (id) => (await deliveryLog(id)).length));
    expect(counts).toEqual([1, 1, 1, 0, 1, 0]);

    // No commit, no event: a transaction that fails after recording leaves nothing behind.
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        await recordEvent(trx, { organizationId: org.brandId }, TOPIC, completedPayload(), clock.now());
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const after = await Promise.all(ids.map(async (id) => (await deliveryLog(id)).length));
    expect(after).toEqual(counts);

    await worker.deliverDue();
    expect(r.received).toHaveLength(4);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
  });

  it('does not deliver another organisation’s events', async () => {
    const r = await receiver();
    await subscribe({ publicationUrl: r.url, topics: '*' });
    const other = await t.newOrganization();
    const theirs = await emit(t, other.brandId, TOPIC, completedPayload(1));
    // A later event of our own: once it has arrived, the worker has been past the other one's.
    const marker = await emit(t, org.brandId, TOPIC, completedPayload(2));
    await worker.deliverDue();
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([marker]);
    const theirDeliveries = await t.database.db
      .selectFrom('event_deliveries')
      .select('id')
      .where('event_id', '=', theirs)
      .execute();
    expect(theirDeliveries).toEqual([]);
  });
});

describe('retries', () => {
  it('delivers 4 times with the same webhook-id to a receiver that fails 3 times, counting one success', async () => {
    // The receiver holds every answer ANSWER_MS, so each attempt takes at least that long.
    const ANSWER_MS = 20;
    const r = await receiver((n) => ({ status: n < 3 ? 500 : 200, delayMs: ANSWER_MS }));
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC, sharedKey: 'k' });
    const eventId = await emit(t, org.brandId, TOPIC, completedPayload());
    /** Wall time of each deliverDue call that made an attempt, measured around it. */
    const walls: number[] = [];
    for (let i = 0; i < 10 && r.received.length < 4; i++) {
      const [before, started] = [r.received.length, performance.now()];
      await worker.deliverDue();
      if (r.received.length > before) walls.push(performance.now() - started);
      clock.advance(60 * 60_000);
    }
    for (let i = 0; i < 3; i++) {
      clock.advance(24 * 3600_000);
      await worker.deliverDue();
    }
    expect(r.received).toHaveLength(4);
    expect(r.received.map((x) => x.headers['webhook-id'])).toEqual([eventId, eventId, eventId, eventId]);
    const sub = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}`);
    expect(sub.body.result.successfulCalls).toBe(1);

    const [delivery] = await deliveryLog(id);
    expect(delivery).toMatchObject({
      eventId,
      topic: TOPIC,
      status: 'delivered',
      attemptCount: 4,
      nextAttemptAt: null,
    });
    expect(delivery.attempts.map((a: { httpStatus: number }) => a.httpStatus)).toEqual([500, 500, 500, 200]);
    expect(delivery.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(delivery.attempts[0].error).toBe('the receiver answered 500');
    expect(delivery.attempts[3].error).toBeNull();
    // Latency is real time around the POST: no less than the receiver held its answer (a timer may
    // fire up to a millisecond early), no more than the call that made the attempt took.
    expect(walls).toHaveLength(4);
    delivery.attempts.forEach((attempt: { latencyMs: number }, i: number) => {
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(ANSWER_MS - 1);
      expect(attempt.latencyMs).toBeLessThanOrEqual(Math.ceil(walls[i] as number));
    });
  });

  it('backs off exponentially for more than 24 hours over at least 8 attempts, then gives up; replay sends it again', async () => {
    let failing = true;
    const r = await receiver(() => ({ status: failing ? 502 : 204 }));
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC });
    const since = clock.now().toISOString();
    await emit(t, org.brandId, TOPIC, completedPayload());
    const gaps: number[] = [];
    for (let i = 0; i < 20; i++) {
      await worker.deliverDue();
      const [delivery] = await deliveryLog(id);
      if (delivery.status !== 'pending') break;
      const wait = Date.parse(delivery.nextAttemptAt) - clock.now().getTime();
      gaps.push(wait);
      clock.advance(wait);
    }
    const [delivery] = await deliveryLog(id);
    expect(delivery.status).toBe('failed');
    expect(delivery.attemptCount).toBeGreaterThanOrEqual(8);
    const times = delivery.attempts.map((a: { attemptedAt: string }) => Date.parse(a.attemptedAt));
    expect(times.at(-1) - times[0]).toBeGreaterThanOrEqual(24 * 3600_000);
    for (let i = 1; i < 5; i++) expect(gaps[i]).toBeGreaterThan(gaps[i - 1] as number);

    failing = false;
    const replay = await t.call(org.apiToken, 'POST', `/API/v3/eventsubscriptions/${id}/deliveries/replay`, {
      since,
    });
    expect(replay.body.result).toEqual({ requeued: 1 });
    await worker.deliverDue();
    const [after] = await deliveryLog(id);
    expect(after.status).toBe('delivered');
    expect(after.attemptCount).toBe(delivery.attemptCount + 1);
    expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
  });

  it.each([
    [429, { 'retry-after': '120' }, 120_000],
    [503, { 'retry-after': '' }, 0],
  ])('honours Retry-After on %i', async (status, headers, expectedMs) => {
    const at = () => new Date(clock.now().getTime() + 300_000).toUTCString();
    const r = await receiver(() => ({
      status,
      headers: headers['retry-after'] === '' ? { 'retry-after': at() } : headers,
    }));
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC });
    await emit(t, org.brandId, TOPIC, completedPayload());
    await worker.deliverDue();
    const [delivery] = await deliveryLog(id);
    const wait = Date.parse(delivery.nextAttemptAt) - clock.now().getTime();
    // An HTTP date has whole seconds: five minutes less at most a second.
    if (expectedMs === 0) expect(Math.abs(wait - 300_000)).toBeLessThanOrEqual(1000);
    else expect(wait).toBe(expectedMs);
  });

  it('disables the subscription when the receiver answers 410', async () => {
    const r = await receiver(() => ({ status: 410 }));
    const id = await subscribe({ publicationUrl: r.url, topics: '*' });
    await emit(t, org.brandId, TOPIC, completedPayload(1));
    await worker.deliverDue();
    await emit(t, org.brandId, TOPIC, completedPayload(2));
    await worker.deliverDue();
    expect(r.received).toHaveLength(1);
    const sub = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}`);
    expect(sub.body.result).toMatchObject({ status: 'disabled', successfulCalls: 0 });
    const [delivery] = await deliveryLog(id);
    expect(delivery).toMatchObject({ status: 'failed', nextAttemptAt: null });
    const retry = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/eventsubscriptions/${id}/deliveries/${delivery.id}/retry`,
    );
    expect(retry.status).toBe(409);
    expect(retry.body.meta.error.errorCode).toBe('FW_EVT_3');
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const elsewhere = await receiver();
    const r = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC });
    await emit(t, org.brandId, TOPIC, completedPayload());
    await worker.deliverDue();
    expect(r.received).toHaveLength(1);
    expect(elsewhere.received).toHaveLength(0);
    const [delivery] = await deliveryLog(id);
    expect(delivery).toMatchObject({ status: 'pending', lastError: 'the receiver answered 307' });
  });

  it('gives up on a receiver that does not answer in time, and retries later', async () => {
    const { createWebhookClient } = await import('../../src/events/webhook-client.js');
    const quick = testWorker(t, {
      client: createWebhookClient({ allowPrivateTargets: true, timeoutMs: 300 }),
    });
    const { createServer } = await import('node:http');
    const silent = createServer(() => {}); // reads the request, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as { port: number }).port;
      const id = await subscribe({ publicationUrl: `http://127.0.0.1:${port}/slow`, topics: TOPIC });
      await emit(t, org.brandId, TOPIC, completedPayload());
      const started = performance.now();
      await quick.deliverDue();
      const wall = performance.now() - started;
      const [delivery] = await deliveryLog(id);
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts[0]).toMatchObject({
        httpStatus: null,
        error: 'no answer in time (timed out)',
      });
      // The client's 300 ms timeout, measured inside the call that made the attempt.
      expect(delivery.attempts[0].latencyMs).toBeGreaterThanOrEqual(250);
      expect(delivery.attempts[0].latencyMs).toBeLessThanOrEqual(Math.ceil(wall));
    } finally {
      await quick.stop();
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe('retry and the delivery log', () => {
  it('retries one delivery now, refuses one being attempted, and pages the log', async () => {
    const r = await receiver((n) => ({ status: n < 3 ? 500 : 200 }));
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC });
    for (let n = 1; n <= 3; n++) await emit(t, org.brandId, TOPIC, completedPayload(n));
    await worker.deliverDue();
    const failed = await deliveryLog(id);
    expect(failed.map((d: { status: string }) => d.status)).toEqual(['pending', 'pending', 'pending']);

    const page = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}/deliveries?pageSize=2`);
    expect(page.body.result.elements).toHaveLength(2);
    expect(page.body.result.nextPage).toContain('offset=2');

    const target = failed[1];
    const retried = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/eventsubscriptions/${id}/deliveries/${target.id}/retry`,
    );
    expect(retried.status).toBe(200);
    expect(retried.body.result).toMatchObject({
      id: target.id,
      status: 'pending',
      nextAttemptAt: clock.now().toISOString(),
    });
    await worker.deliverDue(); // only the retried one is due now
    const log = await deliveryLog(id);
    const byId = new Map(log.map((d: { id: string; status: string }) => [d.id, d.status]));
    expect(byId.get(target.id)).toBe('delivered');
    const delivered = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/eventsubscriptions/${id}/deliveries?status=delivered`,
    );
    expect(delivered.body.result.elements.map((d: { id: string }) => d.id)).toEqual([target.id]);

    // A delivery a worker holds right now cannot be retried under it.
    const { claimDeliveries } = await import('../../src/events/outbox.store.js');
    clock.advance(24 * 3600_000);
    const claimed = await claimDeliveries(t.database.db, 'another-worker', clock.now(), 30_000, 10);
    const mine = claimed.filter((row) => row.subscription_id === id);
    expect(mine.length).toBe(2);
    const busy = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/eventsubscriptions/${id}/deliveries/${mine[0]?.id}/retry`,
    );
    expect(busy.status).toBe(409);
    expect(busy.body.meta.error.errorCode).toBe('FW_EVT_2');
    const missing = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/eventsubscriptions/${id}/deliveries/DL_nope/retry`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.meta.error.errorCode).toBe('FW_EVT_1');

    // The other worker died: once its lease runs out, the deliveries are sent again (at-least-once).
    clock.advance(31_000);
    await worker.deliverDue();
    const final = await deliveryLog(id);
    expect(final.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
    const sub = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}`);
    expect(sub.body.result.successfulCalls).toBe(3);
  });
});

describe('sharing the database with the API', () => {
  it('records an attempt that ends while a module holds a transaction open, once that commits', async () => {
    let commit: () => void = () => {};
    const committed = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let opened: () => void = () => {};
    const moduleOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let moduleTransaction: Promise<string> | undefined;
    const r = await receiver((n) => {
      if (n !== 0) return { status: 200 };
      // While the worker waits for this answer, a module opens a transaction (SQLite: the one
      // connection); the answer goes out only once it is open, so the attempt ends inside it.
      moduleTransaction = t.database.db.transaction().execute(async (trx) => {
        const scope = { organizationId: org.brandId };
        const eventId = await recordEvent(trx, scope, TOPIC, completedPayload(2), clock.now());
        opened();
        await committed;
        return eventId;
      });
      return { status: 200, after: moduleOpen };
    });
    const id = await subscribe({ publicationUrl: r.url, topics: TOPIC });
    await emit(t, org.brandId, TOPIC, completedPayload(1));
    // Watches (does not change) who opens a transaction: the module first, then the attempt's recording.
    const transactions = vi.spyOn(t.database.db, 'transaction');
    try {
      const delivering = worker.deliverDue();
      await pollUntil(
        'the attempt recorded while the module transaction is open',
        () => (transactions.mock.calls.length >= 2 ? true : undefined),
        { timeoutMs: 10_000 },
      );
      commit();
      const second = await moduleTransaction;
      await delivering;
      await worker.deliverDue();

      expect(r.received.map((x) => x.headers['webhook-id'])).toContain(second);
      expect(r.received).toHaveLength(2);
      const log = await deliveryLog(id);
      expect(log.map((d: { status: string; attempts: unknown[] }) => [d.status, d.attempts.length])).toEqual([
        ['delivered', 1],
        ['delivered', 1],
      ]);
      const sub = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}`);
      expect(sub.body.result.successfulCalls).toBe(2);
    } finally {
      commit();
      transactions.mockRestore();
    }
  });
});
