import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { INITIAL_LIMIT } from '../../src/events/concurrency-limit.js';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { recordEvent } from '../../src/events/record-event.js';
import { completedResponseTopic } from '../../src/events/topics.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { completedPayload, eventsTestApp, SURVEY_ID, testWorker } from './event-fixtures.js';

/**
 * Issue 20: webhook concurrency adapts per receiver (decision 0013). Real receivers on 127.0.0.1 count the
 * requests they hold unanswered at once; the worker runs its own loop, as in `fieldwork serve`.
 */
const TOPIC = completedResponseTopic(SURVEY_ID);

let t: TestApp;
let clock: Awaited<ReturnType<typeof eventsTestApp>>['clock'];
const receivers: WebhookReceiver[] = [];
const workers: DeliveryWorker[] = [];

beforeAll(async () => {
  ({ t, clock } = await eventsTestApp());
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});
afterAll(async () => {
  await t.close();
});

/**
 * A receiver that answers `status` after `delayMs` (or, given `held`, once it settles), counting the
 * requests it holds at once.
 */
async function countingReceiver(delayMs: number, status = 200, held?: Promise<void>) {
  const counts = { inFlight: 0, peak: 0, answered: 0, atArrival: [] as number[] };
  const receiver = await startWebhookReceiver(() => {
    counts.inFlight++;
    counts.peak = Math.max(counts.peak, counts.inFlight);
    counts.atArrival.push(counts.inFlight);
    const answered = (held ?? new Promise((resolve) => setTimeout(resolve, delayMs))).then(() => {
      counts.inFlight--;
      counts.answered++;
    });
    return { status, after: answered };
  });
  receivers.push(receiver);
  return { receiver, counts };
}

/** A new organisation subscribed to `url`; returns its brand id. */
async function subscribed(url: string): Promise<string> {
  const org = await t.newOrganization();
  const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: url,
    topics: TOPIC,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return org.brandId;
}

/** `count` events in one transaction, as a burst of completions commits them. */
function emitMany(brandId: string, count: number): Promise<void> {
  return t.database.db.transaction().execute(async (trx) => {
    for (let n = 0; n < count; n++)
      await recordEvent(trx, { organizationId: brandId }, TOPIC, completedPayload(n), clock.now());
  });
}

function running(): DeliveryWorker {
  const worker = testWorker(t);
  workers.push(worker);
  worker.start();
  return worker;
}

it('sends more than 32 requests at once to a receiver that answers in 500 ms', {
  timeout: 60_000,
}, async () => {
  const { receiver, counts } = await countingReceiver(500);
  const brandId = await subscribed(receiver.url);
  await emitMany(brandId, 400);
  running();
  await receiver.waitFor(400, 40_000);
  // The old fixed window was 32; the limit starts at 16 and doubles per round trip while answers keep
  // their time.
  expect(counts.peak).toBeGreaterThan(32);
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(400);
  console.info(`500 ms receiver: peak ${counts.peak} in flight`);
});

it('sends fewer at once to a failing receiver than to a healthy one', { timeout: 60_000 }, async () => {
  const healthy = await countingReceiver(100, 200);
  const failing = await countingReceiver(100, 503);
  const healthyBrand = await subscribed(healthy.receiver.url);
  const failingBrand = await subscribed(failing.receiver.url);
  await emitMany(healthyBrand, 300);
  await emitMany(failingBrand, 300);
  running();
  await healthy.receiver.waitFor(300, 40_000);
  await failing.receiver.waitFor(60, 40_000);

  expect(healthy.counts.peak).toBeGreaterThan(INITIAL_LIMIT);
  expect(failing.counts.peak).toBeLessThanOrEqual(INITIAL_LIMIT);
  expect(failing.counts.peak).toBeLessThan(healthy.counts.peak);
  // Halved once per round trip down to the floor: its latest requests came one or two at a time.
  expect(Math.max(...failing.counts.atArrival.slice(-10))).toBeLessThanOrEqual(2);
  console.info(`healthy peak ${healthy.counts.peak}, failing peak ${failing.counts.peak}`);
});

it('delivers to a fast receiver while a slow one holds every request it was sent, with a backlog behind them', {
  timeout: 60_000,
}, async () => {
  // The slow receiver answers nothing until the fast one has everything: no wall-clock bound, so a loaded
  // machine cannot fail it, and a worker that made the fast receiver wait for any slow answer never passes.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const slow = await countingReceiver(0, 200, held);
  const fast = await countingReceiver(0);
  try {
    const slowBrand = await subscribed(slow.receiver.url);
    const fastBrand = await subscribed(fast.receiver.url);
    // The slow receiver's 600 events are due first; the worker is busy with them when the fast one's come.
    await emitMany(slowBrand, 600);
    running();
    await slow.receiver.waitFor(INITIAL_LIMIT, 10_000);
    clock.advance(1);
    const committed = performance.now();
    await emitMany(fastBrand, 20);
    await fast.receiver.waitFor(20, 20_000);
    const waited = performance.now() - committed;
    const slowSoFar = slow.receiver.received.length;

    // A window of 32 in the order rows fell due would have sent them only after the slow backlog, that is
    // never while the slow receiver holds its requests.
    expect(slow.counts.answered).toBe(0);
    expect(slowSoFar).toBeLessThan(600);
    console.info(`fast receiver: 20 events in ${waited.toFixed(0)} ms, slow one had ${slowSoFar} of 600`);
  } finally {
    release();
  }
});
