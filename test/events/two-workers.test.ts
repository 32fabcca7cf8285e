import { afterEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { freshStorageEnv, runCli, type StartedServer, startCli } from '../helpers/cli.js';
import { TEST_ENGINE } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { emitMany, openCliStorage, tally } from './cli-storage.js';

/**
 * Issue 4: worker processes (`fieldwork serve --role worker`) deliver 2,000 events while the receiver
 * succeeds, and no attempt is made twice. On PostgreSQL two processes share the work through
 * `FOR UPDATE SKIP LOCKED`; SQLite has one writer, so there one worker process does it, same assertions.
 */
const EVENTS = 2000;
const WORKERS = TEST_ENGINE === 'postgres' ? 2 : 1;

let workers: StartedServer[] = [];
let receiver: WebhookReceiver | undefined;
let storage: Db | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await receiver?.close();
  await storage?.close();
  await cleanup?.();
  workers = [];
  receiver = storage = cleanup = undefined;
});

it(`${WORKERS} worker process(es) deliver ${EVENTS} events, no attempt made twice`, {
  timeout: 180_000,
}, async () => {
  const env = await freshStorageEnv();
  cleanup = env.cleanup;
  const init = await runCli(['init', '--brand', 'acme', '--json'], env.env);
  expect(init.code, init.stderr).toBe(0);
  receiver = await startWebhookReceiver(() => ({ status: 200, delayMs: 5 }));

  storage = openCliStorage(env.env);
  await storage.db
    .insertInto('event_subscriptions')
    .values({
      organization_id: 'acme',
      id: 'SUB_twoworkers00001',
      topics: '*',
      publication_url: receiver.url,
      encrypt: 1,
      shared_key: '0123456789abcdef',
      status: 'active',
      disabled_reason: null,
      created_at: new Date().toISOString(),
    })
    .execute();

  const args = ['bin/fieldwork.js', 'serve', '--role', 'worker', '--port', '0', '--allow-private-targets'];
  workers = await Promise.all(
    Array.from({ length: WORKERS }, () => startCli(process.execPath, args, env.env)),
  );
  // A worker node serves /health and nothing else.
  const health = await fetch(`${workers[0]?.url}/health`);
  expect(health.status).toBe(200);
  expect((await fetch(`${workers[0]?.url}/API/v3/eventsubscriptions`)).status).toBe(404);

  const eventIds = await emitMany(storage, 'acme', EVENTS);
  const got = receiver;
  await got.waitFor(EVENTS, 120_000);
  // Give a would-be second attempt time to show up before counting.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const { counts, consistent } = tally(got.received);
  expect(got.received).toHaveLength(EVENTS);
  expect(new Set(counts.keys())).toEqual(new Set(eventIds));
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(consistent).toBe(true);

  const attempts = await storage.db
    .selectFrom('event_delivery_attempts')
    .select(['delivery_id', 'attempt', 'worker', 'http_status'])
    .execute();
  expect(attempts).toHaveLength(EVENTS);
  expect(attempts.every((a) => a.attempt === 1 && a.http_status === 200)).toBe(true);
  const byWorker = new Map<string, number>();
  for (const a of attempts) byWorker.set(a.worker, (byWorker.get(a.worker) ?? 0) + 1);
  expect(byWorker.size).toBe(WORKERS); // every worker process took a share
  const subscription = await storage.db
    .selectFrom('event_subscriptions')
    .select('successful_calls')
    .executeTakeFirstOrThrow();
  expect(subscription.successful_calls).toBe(EVENTS);
  console.info(`two workers: attempts per worker ${JSON.stringify([...byWorker.values()])}`);
});
