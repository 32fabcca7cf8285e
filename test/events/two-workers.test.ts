import { afterEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { freshStorageEnv, runCli, type StartedServer, startCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/poll.js';
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

/** How many deliveries are in each status. */
async function statusCounts(db: Db['db']): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('event_deliveries')
    .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
}

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
  // No row is left to attempt: every delivery is recorded as delivered, none pending or leased.
  const db = storage.db;
  await pollUntil(
    'every delivery recorded',
    async () => ((await statusCounts(db)).delivered === EVENTS ? true : undefined),
    { timeoutMs: 60_000, progress: () => got.received.length },
  );
  expect(await statusCounts(db)).toEqual({ delivered: EVENTS });
  // And no attempt is still on its way: a worker stopped with SIGTERM finishes the POSTs it has in
  // flight (the receiver records each before answering) and exits 0. After that nothing can arrive.
  const codes = await Promise.all(workers.map((w) => w.stop()));
  expect(codes).toEqual(workers.map(() => 0));

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
