import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import { parseSecretKey } from '../../src/config.js';
import { migrateToLatest } from '../../src/db/database.js';
import { DeliveryWorker } from '../../src/events/delivery-worker.js';
import { openSecret } from '../../src/events/sealed-secret.js';
import { SECRET_KEY_FILE, secretKeyOf } from '../../src/events/secret-key.js';
import { completedResponseTopic } from '../../src/events/topics.js';
import type { Database } from '../../src/tables.js';
import { databaseAtMigration } from '../helpers/database-at-migration.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { completedPayload, emit, receiverDecrypt, receiverHmac, SURVEY_ID } from './event-fixtures.js';

/**
 * Issue 19, defect 9: a subscription's sharedKey (the HMAC and AES key of its deliveries) was stored in
 * clear. Now it is sealed (AES-256-GCM) with FIELDWORK_SECRET_KEY or the data directory's key file, keys
 * stored before are sealed at the next start, and deliveries still carry the same HMAC and ciphertext.
 */
const TOPIC = completedResponseTopic(SURVEY_ID);
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tmp = mkdtempSync(join(tmpdir(), 'fieldwork-sealed-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  cleanups.push(() => started.close());
  return started;
}

async function app(options: Parameters<typeof buildTestApp>[0] = {}): Promise<TestApp> {
  const config = { allowPrivateTargets: true, ...options.config };
  const t = await buildTestApp({ clock: manualClock('2026-03-01T12:00:00Z'), ...options, config });
  cleanups.push(() => t.close());
  return t;
}

const storedKey = async (db: Kysely<Database>, id: string) =>
  (
    await db
      .selectFrom('event_subscriptions')
      .select('shared_key')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).shared_key as string;

/** Delivers what is due with a worker node of its own config (its secret key) over the app's database. */
async function deliver(t: TestApp, config: Partial<Config> = {}): Promise<number> {
  const deps = {
    db: t.database.db,
    clock: t.clock,
    config: testConfig({ allowPrivateTargets: true, ...config }),
  };
  const worker = new DeliveryWorker(deps, { random: () => 0.5 });
  try {
    return await worker.deliverDue();
  } finally {
    await worker.stop();
  }
}

describe('a sharedKey at rest', () => {
  it('is stored sealed, and deliveries carry the HMAC and AES ciphertext of the key given', async () => {
    const t = await app();
    const r = await receiver();
    const org = await t.newOrganization();
    const key = '0123456789abcdef0123456789abcdef';
    const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: r.url,
      topics: TOPIC,
      encrypt: true,
      sharedKey: key,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const stored = await storedKey(t.database.db, res.body.result.id);
    expect(stored.startsWith('v1:')).toBe(true);
    for (const form of [key, Buffer.from(key).toString('base64'), Buffer.from(key).toString('hex')])
      expect(stored).not.toContain(form);

    await emit(t, org.brandId, TOPIC, completedPayload(3));
    expect(await deliver(t)).toBe(1);
    const msg = r.received[0]?.form.get('MSG') ?? '';
    expect(r.received[0]?.form.get('HMAC')).toBe(receiverHmac(msg, key));
    expect(JSON.parse(receiverDecrypt(msg, key))).toEqual({ ...completedPayload(3), BrandID: org.brandId });
  });

  it('is sealed with the data directory key file, made 0600 on first start, without FIELDWORK_SECRET_KEY', async () => {
    const dataDir = join(tmp, `node-${randomBytes(4).toString('hex')}`);
    const t = await app({ config: { dataDir } });
    const path = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const fileKey = parseSecretKey(readFileSync(path, 'utf8').trim()) as Buffer;
    const org = await t.newOrganization();
    const res = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: 'https://hooks.example.com/in',
      topics: '*',
      sharedKey: 'file key test',
    });
    expect(res.status).toBe(200);
    const stored = await storedKey(t.database.db, res.body.result.id);
    expect(stored).toMatch(/^v1:/);
    expect(openSecret(stored, fileKey)).toBe('file key test');
  });

  it('is sealed with FIELDWORK_SECRET_KEY when set, and a node with another key records why it cannot sign', async () => {
    const secretKey = randomBytes(32);
    const dataDir = join(tmp, `env-${randomBytes(4).toString('hex')}`);
    const t = await app({ config: { dataDir, secretKey } });
    expect(() => statSync(join(dataDir, SECRET_KEY_FILE))).toThrow();
    const r = await receiver();
    const org = await t.newOrganization();
    const created = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: r.url,
      topics: TOPIC,
      sharedKey: 'env key test',
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id as string;
    const stored = await storedKey(t.database.db, id);
    expect(stored).toMatch(/^v1:/);
    expect(openSecret(stored, secretKey)).toBe('env key test');

    await emit(t, org.brandId, TOPIC, completedPayload(4));
    expect(await deliver(t, { secretKey: randomBytes(32) })).toBe(1);
    expect(r.received).toHaveLength(0);
    const log = await t.call(org.apiToken, 'GET', `/API/v3/eventsubscriptions/${id}/deliveries`);
    const [delivery] = log.body.result.elements;
    expect(delivery.status).toBe('pending');
    expect(delivery.attempts[0].error).toContain("the subscription's sharedKey cannot be read");
  });
});

describe('keys stored in clear before this version', () => {
  it('are tagged by migration 0007, sealed at the next start, and sign as before', async () => {
    const { database, drop } = await databaseAtMigration('0006-engine');
    cleanups.push(drop);
    await database.db
      .insertInto('organizations')
      .values({
        id: 'orgclear',
        name: 'Clear',
        type: 'brand',
        status: 'active',
        target_audience: 0,
        created_at: '2026-01-01T00:00:00Z',
      })
      .execute();
    const r = await receiver();
    // One key that looks sealed: the migration's tag keeps it from being taken for one.
    const keys = {
      SUB_clear000000001: 'an old clear key',
      SUB_clear000000002: 'v1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    };
    for (const [id, key] of Object.entries(keys))
      await database.db
        .insertInto('event_subscriptions')
        .values({
          organization_id: 'orgclear',
          id,
          topics: TOPIC,
          publication_url: r.url,
          encrypt: 0,
          shared_key: key,
          status: 'active',
          disabled_reason: null,
          created_at: '2026-01-01T00:00:00Z',
        })
        .execute();

    await migrateToLatest(database.db);
    const t = await app({ database });
    for (const [id, key] of Object.entries(keys)) {
      const stored = await storedKey(t.database.db, id);
      expect(stored.startsWith('v1:')).toBe(true);
      expect(stored).not.toContain(key.slice(3));
      expect(openSecret(stored, secretKeyOf(testConfig()))).toBe(key);
    }

    await emit(t, 'orgclear', TOPIC, completedPayload(5));
    expect(await deliver(t)).toBe(2);
    const hmacs = r.received.map((got) => got.form.get('HMAC')).sort();
    const msg = r.received[0]?.form.get('MSG') ?? '';
    expect(hmacs).toEqual(
      Object.values(keys)
        .map((key) => receiverHmac(msg, key))
        .sort(),
    );
  });
});
