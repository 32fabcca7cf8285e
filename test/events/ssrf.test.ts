import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { PrivateTargetError } from '../../src/events/ssrf.js';
import { createWebhookClient } from '../../src/events/webhook-client.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { completedPayload, emit } from './event-fixtures.js';

/** Private targets are off by default: a delivery never reaches loopback or private addresses. */
let receiver: WebhookReceiver;
let port: string;
const message = {
  body: 'Topic=x&MSG=%7B%7D',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  port = new URL(receiver.url).port;
});
afterAll(() => receiver.close());

describe('the webhook client with private targets refused', () => {
  const client = createWebhookClient({ allowPrivateTargets: false });
  afterAll(() => client.close());

  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${port}/hook`],
    [
      'a name that resolves to loopback (checked in the connection’s own lookup)',
      () => `http://localhost:${port}/hook`,
    ],
    ['an IPv6 loopback literal', () => `http://[::1]:${port}/hook`],
    ['an IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.1]:${port}/hook`],
    ['a private literal', () => 'http://10.1.2.3:9/hook'],
    ['a link-local literal (cloud metadata)', () => 'http://169.254.169.254/latest/meta-data'],
  ])('refuses %s and sends nothing', async (_, url) => {
    const before = receiver.received.length;
    await expect(client.post(url(), message)).rejects.toThrow(/refused|private/);
    expect(receiver.received.length).toBe(before);
  });

  it('refuses with the typed error', async () => {
    await expect(client.post(`http://localhost:${port}/hook`, message)).rejects.toBeInstanceOf(
      PrivateTargetError,
    );
  });
});

it('delivers to loopback when the operator allows private targets', async () => {
  const client = createWebhookClient({ allowPrivateTargets: true });
  try {
    const res = await client.post(`http://localhost:${port}/hook`, message);
    expect(res.status).toBe(200);
  } finally {
    await client.close();
  }
});

describe('a server that does not allow private targets', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ clock: manualClock('2026-03-01T00:00:00Z') });
  });
  afterAll(() => t.close());

  it('refuses a private publicationUrl at creation with a 400 naming the field', async () => {
    const org = await t.newOrganization();
    for (const publicationUrl of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://[::1]/x',
      'http://192.168.1.1/x',
    ]) {
      const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
        publicationUrl,
        topics: '*',
      });
      expect(res.status, publicationUrl).toBe(400);
      expect(res.body.meta.error.errorMessage).toContain('publicationUrl');
    }
  });

  it('records a refused attempt in the delivery log when a name resolves to a private address', async () => {
    const org = await t.newOrganization();
    // A public-looking subscription written directly: its host resolves to loopback at delivery time.
    await t.database.db
      .insertInto('event_subscriptions')
      .values({
        organization_id: org.brandId,
        id: 'SUB_rebinding0000001',
        topics: '*',
        publication_url: `http://localhost:${port}/hook`,
        encrypt: 0,
        shared_key: null,
        status: 'active',
        disabled_reason: null,
        created_at: t.clock.now().toISOString(),
      })
      .execute();
    await emit(t, org.brandId, 'controlpanel.activateSurvey', completedPayload());
    const worker = new DeliveryWorker({ db: t.database.db, clock: t.clock, config: testConfig() });
    const before = receiver.received.length;
    try {
      await worker.deliverDue();
    } finally {
      await worker.stop();
    }
    expect(receiver.received.length).toBe(before);
    const log = await t.call(
      org.apiToken,
      'GET',
      '/API/v3/eventsubscriptions/SUB_rebinding0000001/deliveries',
    );
    const [delivery] = log.body.result.elements;
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0]).toMatchObject({ httpStatus: null });
    expect(delivery.attempts[0].error).toMatch(/^refused: localhost resolves to/);
  });
});
