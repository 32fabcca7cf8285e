/**
 * Issue 4: event delivery to a local receiver with HMAC and AES (a 32-byte key: AES-256), against a bare
 * loop of the same POSTs through the same HTTP client with the same number in flight, in the same run.
 * Goal: ratio >= 0.5. Rounds alternate (bare, worker, ...) and the best of each is compared, so load from
 * elsewhere on the machine does not decide the ratio. Then commit-to-receipt latency: single events committed one at a time while the
 * worker runs, timed from the commit returning to the receiver reading the request (p50, p99). The process's
 * CPU time per POST and per delivery (medians of the rounds) is printed too: on a shared machine it moves
 * less with load than the rates do.
 * Run with `npm run bench -- event`; `EVENT_BENCH_PG=1` runs it on PostgreSQL (TEST_DATABASE_URL, default the
 * local test database) in a fresh schema, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, type Db, migrateToLatest, SCHEMA_CHANGE_LOCK } from '../src/db/database.js';
import { DeliveryWorker } from '../src/events/delivery-worker.js';
import { buildMessage } from '../src/events/message.js';
import { recordEvent } from '../src/events/record-event.js';
import { completedResponseTopic } from '../src/events/topics.js';
import { createWebhookClient } from '../src/events/webhook-client.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { BenchResult } from './run.js';

const EVENTS = 5000;
const IN_FLIGHT = 32;
const LATENCY_SAMPLES = 200;
const ROUNDS = 5;
const KEY = '0123456789abcdef0123456789abcdef';
const PG_URL = process.env.EVENT_BENCH_PG
  ? (process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  : undefined;
const TOPIC = completedResponseTopic('SV_benchmark000001');
const payload = (n: number) => ({
  Status: 'Complete',
  SurveyID: 'SV_benchmark000001',
  ResponseID: `R_${String(n).padStart(15, '0')}`,
  CompletedDate: '2026-01-01 00:00:00',
});

/** A receiver that answers 200 at once and tells the bench when each webhook-id arrived. */
async function startReceiver(onReceive: (id: string) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      onReceive(String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Throughput, and the process's CPU time (user + system) per item: steadier than rates on a busy machine. */
interface Round {
  perSecond: number;
  cpuMicros: number;
}

function timed(started: number, cpu: NodeJS.CpuUsage): Round {
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSecond: (EVENTS / elapsed) * 1000, cpuMicros: (used.user + used.system) / EVENTS };
}

/** The baseline: the same POSTs, pre-built, through the same client, IN_FLIGHT at a time. */
async function bareLoop(url: string): Promise<Round> {
  const client = createWebhookClient({ allowPrivateTargets: true });
  const messages = Array.from({ length: EVENTS }, (_, n) =>
    buildMessage({
      eventId: `bare-${n}`,
      brandId: 'bench',
      topic: TOPIC,
      payload: payload(n),
      sharedKey: KEY,
      encrypt: true,
      sentAt: new Date(),
    }),
  );
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < messages.length) {
        const message = messages[next++];
        if (message && (await client.post(url, message)).status !== 200)
          throw new Error('baseline POST failed');
      }
    }),
  );
  const round = timed(started, cpu);
  await client.close();
  return round;
}

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** An in-memory SQLite database, or a fresh PostgreSQL schema that `drop` removes. */
async function openBenchDatabase(): Promise<{ database: Db; drop: () => Promise<void> }> {
  if (!PG_URL) return { database: createDatabase({ dataDir: ':memory:' }), drop: async () => {} };
  const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
  const database = createDatabase({ dataDir: ':memory:', databaseUrl: PG_URL, pgSchema });
  await database.db.schema.createSchema(pgSchema).execute();
  const drop = async () => {
    const admin = createDatabase({ dataDir: ':memory:', databaseUrl: PG_URL });
    // Under the lock migrations take, as the tests drop their schemas (a migration elsewhere introspects).
    await admin.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${SCHEMA_CHANGE_LOCK})`.execute(trx);
      await trx.schema.dropSchema(pgSchema).ifExists().cascade().execute();
    });
    await admin.close();
  };
  return { database, drop };
}

export default async function bench(): Promise<BenchResult> {
  const { database, drop } = await openBenchDatabase();
  await migrateToLatest(database.db);
  await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const arrivals = new Map<string, number>();
  let waiting: { count: number; resolve: () => void } | undefined;
  const receiver = await startReceiver((id) => {
    if (!id.startsWith('bare-') && !arrivals.has(id)) arrivals.set(id, performance.now());
    if (waiting && arrivals.size >= waiting.count) waiting.resolve();
  });
  const arrived = (count: number) =>
    new Promise<void>((resolve) => {
      waiting = { count, resolve };
      if (arrivals.size >= count) resolve();
    });
  await database.db
    .insertInto('event_subscriptions')
    .values({
      organization_id: 'bench',
      id: 'SUB_benchmark00001',
      topics: 'surveyengine.*',
      publication_url: receiver.url,
      encrypt: 1,
      shared_key: KEY,
      status: 'active',
      disabled_reason: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  const config = { ...readConfig({ data: ':memory:', rateLimit: '0' }, {}), allowPrivateTargets: true };
  const worker = new DeliveryWorker(
    { db: database.db, clock: systemClock, config },
    { concurrency: IN_FLIGHT },
  );
  const scope = { organizationId: 'bench' };

  try {
    await bareLoop(receiver.url); // warm-up of the client, the receiver and the JIT
    worker.start();
    // Alternate rounds, so a burst of load from elsewhere on the machine hits both sides alike; the best
    // round of each is compared.
    const bare: Round[] = [];
    const ours: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      bare.push(await bareLoop(receiver.url));
      const before = arrivals.size;
      await database.db.transaction().execute(async (trx) => {
        for (let n = 0; n < EVENTS; n++) await recordEvent(trx, scope, TOPIC, payload(n), new Date());
      });
      const cpu = process.cpuUsage();
      const started = performance.now();
      await arrived(before + EVENTS);
      ours.push(timed(started, cpu));
    }

    const latencies: number[] = [];
    for (let n = 0; n < LATENCY_SAMPLES; n++) {
      const before = arrivals.size;
      const id = await database.db
        .transaction()
        .execute((trx) => recordEvent(trx, scope, TOPIC, payload(EVENTS + n), new Date()));
      const committed = performance.now();
      await arrived(before + 1);
      latencies.push((arrivals.get(id) ?? Number.NaN) - committed);
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
    latencies.sort((a, b) => a - b);
    const rates = (rounds: Round[]) => rounds.map((r) => r.perSecond);
    const cpu = (rounds: Round[]) => median(rounds.map((r) => r.cpuMicros)).toFixed(0);
    return {
      name: `event delivery (${PG_URL ? 'PostgreSQL' : 'SQLite'}, HMAC + AES-256) vs bare POST loop, same client`,
      lines: [
        `${EVENTS} events, ${IN_FLIGHT} in flight, receiver on 127.0.0.1`,
        `bare POST loop:  ${rates(bare)
          .map((r) => r.toFixed(0))
          .join(', ')} POST/s`,
        `delivery worker: ${rates(ours)
          .map((r) => r.toFixed(0))
          .join(', ')} deliveries/s (commit to last receipt)`,
        `ratio:           ${(Math.max(...rates(ours)) / Math.max(...rates(bare))).toFixed(2)} best to best (goal >= 0.5), ${(median(rates(ours)) / median(rates(bare))).toFixed(2)} median to median`,
        `process CPU:     ${cpu(bare)} us per POST, ${cpu(ours)} us per delivery (medians, this process: the receiver in both, never the database server)`,
        `commit-to-receipt (${LATENCY_SAMPLES} single events): p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
      ],
    };
  } finally {
    await worker.stop();
    await receiver.close();
    await database.close();
    await drop();
  }
}
