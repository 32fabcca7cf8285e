import { afterEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { pollUntil } from '../helpers/poll.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { emitMany, openCliStorage, tally } from './cli-storage.js';

/**
 * Issue 4, crash safety: 5,000 events pending, the real server process killed with SIGKILL while it is
 * delivering them, then restarted over the same storage. Every event reaches the receiver, none is lost,
 * and the duplicates are exactly what at-least-once allows: the events the dead process POSTed but had
 * not recorded as delivered (each then still leased to it), sent once more, with the same webhook-id and
 * body, once the lease runs out. Needs dist/ (`npm run build`; `npm test` builds it first).
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

/** Event ids of the deliveries in `status`; for `pending`, only those a worker holds the lease of. */
async function eventIdsIn(db: Db, status: 'delivered' | 'pending'): Promise<Set<string>> {
  let query = db.db.selectFrom('event_deliveries').select('event_id').where('status', '=', status);
  if (status === 'pending') query = query.where('lease_owner', 'is not', null);
  return new Set((await query.execute()).map((row) => row.event_id));
}

/** The first start prints the token on the line after the URL; it may arrive a moment later. */
function firstStartToken(started: StartedServer): Promise<string> {
  return pollUntil(
    'the first start prints its token',
    () => /API token \(shown only this once\): ([A-Za-z0-9]{40})/.exec(started.output())?.[1],
    { timeoutMs: 5_000, intervalMs: 50, progress: () => started.output() },
  );
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
  // Every socket of the dead process closed: the receiver has read all it ever sent.
  const got = receiver;
  await pollUntil('the dead process’s connections closed', () =>
    got.openConnections() === 0 ? true : undefined,
  );
  const atKill = got.received.length;
  expect(atKill).toBeLessThan(EVENTS); // it really died mid-delivery
  const receivedAtKill = new Set(got.received.map((r) => String(r.headers['webhook-id'])));
  const deliveredAtKill = await eventIdsIn(storage, 'delivered');
  const leasedAtKill = await eventIdsIn(storage, 'pending');
  // Recorded as delivered only after the receiver had it; sent only while leased.
  expect([...deliveredAtKill].filter((id) => !receivedAtKill.has(id))).toEqual([]);
  const unrecorded = [...receivedAtKill].filter((id) => !deliveredAtKill.has(id));
  expect(unrecorded.filter((id) => !leasedAtKill.has(id))).toEqual([]);

  server = await startCli(process.execPath, SERVE, env.env);
  const restarted = server;
  // Deliveries the dead process held come back once their lease (30 s) runs out; the log records each.
  const db = storage;
  await pollUntil(
    'every delivery recorded as delivered',
    async () => ((await eventIdsIn(db, 'delivered')).size === EVENTS ? true : undefined),
    { timeoutMs: 150_000, intervalMs: 200, progress: () => got.received.length },
  );
  // SIGTERM lets the server finish what it has in flight and exit 0: after that nothing more arrives.
  expect(await restarted.stop()).toBe(0);

  const { counts, consistent } = tally(got.received);
  expect(new Set(counts.keys())).toEqual(new Set(eventIds));
  expect(consistent).toBe(true);
  // Exactly the unrecorded ones came twice (at most the deliveries leased at the kill), all others once.
  const duplicated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  expect(duplicated.sort()).toEqual([...unrecorded].sort());
  expect(Math.max(...counts.values())).toBeLessThanOrEqual(2);
  const duplicates = got.received.length - EVENTS;
  expect(duplicates).toBe(unrecorded.length);
  expect(duplicates).toBeLessThanOrEqual(leasedAtKill.size);

  // The log agrees: one recorded attempt per delivery (the dead process's unrecorded POSTs left none),
  // each counted once in successfulCalls.
  const attempts = await storage.db.selectFrom('event_delivery_attempts').select(['attempt']).execute();
  expect(attempts).toHaveLength(EVENTS);
  expect(attempts.every((a) => a.attempt === 1)).toBe(true);
  const subscription = await storage.db
    .selectFrom('event_subscriptions')
    .select('successful_calls')
    .where('id', '=', subscriptionId)
    .executeTakeFirstOrThrow();
  expect(subscription.successful_calls).toBe(EVENTS);
  console.info(
    `crash safety: ${atKill} received before SIGKILL, ${leasedAtKill.size} leased, ${duplicates} duplicates after restart`,
  );
});
