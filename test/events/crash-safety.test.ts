import { afterEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { emitMany, openCliStorage, tally } from './cli-storage.js';

/**
 * Issue 4, crash safety: 5,000 events pending, the real server process killed with SIGKILL while it is
 * delivering them, then restarted over the same storage. Every event reaches the receiver at least once,
 * none is lost, and a duplicate (a POST the dead process made but could not record) carries the same
 * webhook-id and body. Needs dist/ (`npm run build`; `npm test` builds it first).
 */
const EVENTS = 5000;
const SERVE = ['bin/fieldwork.js', 'serve', '--port', '0', '--allow-private-targets', '--log-level', 'warn'];

let server: StartedServer | undefined;
let receiver: WebhookReceiver | undefined;
let storage: Db | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.stop();
  await receiver?.close();
  await storage?.close();
  await cleanup?.();
  server = receiver = storage = cleanup = undefined;
});

/** The first start prints the token on the line after the URL; it may arrive a moment later. */
async function firstStartToken(started: StartedServer): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const token = /API token \(shown only this once\): ([A-Za-z0-9]{40})/.exec(started.output())?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no token printed:\n${started.output()}`);
}

it('loses no event when the server is killed mid-delivery and restarted', { timeout: 240_000 }, async () => {
  const env = await freshStorageEnv();
  cleanup = env.cleanup;
  // A receiver that takes a few milliseconds per answer, so the kill lands with deliveries in flight.
  receiver = await startWebhookReceiver(() => ({ status: 200, delayMs: 5 }));
  server = await startCli(process.execPath, SERVE, env.env);
  const token = await firstStartToken(server);
  const created = await fetch(`${server.url}/API/v3/eventsubscriptions`, {
    method: 'POST',
    headers: { 'x-api-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({
      publicationUrl: receiver.url,
      topics: 'surveyengine.*',
      sharedKey: 'crash-test-key',
    }),
  });
  expect(created.status).toBe(200);
  const subscriptionId = (await created.json()).result.id as string;

  storage = openCliStorage(env.env);
  const eventIds = await emitMany(storage, 'fieldwork', EVENTS);

  await receiver.waitFor(500, 60_000);
  process.kill(-(server.child.pid as number), 'SIGKILL');
  await server.stop();
  const atKill = receiver.received.length;
  expect(atKill).toBeLessThan(EVENTS); // it really died mid-delivery

  server = await startCli(process.execPath, SERVE, env.env);
  const got = receiver;
  // Deliveries the dead process held come back once their lease (30 s) runs out.
  await got.waitUntil(
    (received) => new Set(received.map((r) => r.headers['webhook-id'])).size >= EVENTS,
    150_000,
  );

  const { counts, consistent } = tally(got.received);
  expect(new Set(counts.keys())).toEqual(new Set(eventIds));
  expect(consistent).toBe(true);
  const duplicates = got.received.length - EVENTS;
  expect(duplicates).toBeGreaterThanOrEqual(0);

  // The log agrees: all delivered, each counted once in successfulCalls.
  await got.waitUntil(() => true);
  const deadline = Date.now() + 30_000;
  let delivered = 0;
  while (Date.now() < deadline) {
    const row = await storage.db
      .selectFrom('event_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'delivered')
      .executeTakeFirstOrThrow();
    delivered = Number(row.n);
    if (delivered === EVENTS) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(delivered).toBe(EVENTS);
  const subscription = await storage.db
    .selectFrom('event_subscriptions')
    .select('successful_calls')
    .where('id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  expect(subscription.successful_calls).toBe(EVENTS);
  console.info(`crash safety: ${atKill} received before SIGKILL, ${duplicates} duplicates after restart`);
});
