/**
 * Issue 20, webhooks: a `fieldwork serve --role worker` process delivering to receivers on 127.0.0.1, on
 * SQLite and on PostgreSQL (WEBHOOK_BENCH_ENGINES=sqlite or =postgres for one of them):
 * 1. commit→receipt: completion events committed one per transaction at 400 a second for 10 s (as
 *    400 recorded responses a second commit them) to a receiver that answers in 50 ms; p50 and p99 from
 *    the commit returning to the receiver reading the request. Goal: p50 under 100 ms, p99 under 1 s.
 * 2. peak in flight: 3,000 events at once to a receiver that answers in 500 ms; the most requests it held
 *    unanswered at once. Goal: more than 32 (the old fixed window).
 * 3. both at once: the 500 ms receiver with a backlog of 4,000 while the 50 ms one gets 400 a second for
 *    5 s; the fast receiver's commit→receipt (a slow receiver must not hold a fast one back).
 * The worker is a child process running the TypeScript sources (tsx), with its defaults; the events are
 * committed by another (webhooks.child.ts: better-sqlite3 waits for SQLite's lock synchronously, which
 * would stall receivers in the same process), and the receivers run here. Commit and receipt are timed
 * as `performance.timeOrigin + performance.now()` in both processes. Each message carries an HMAC and is
 * AES-256 encrypted, as in the event bench.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { systemClock } from '../src/clock.js';
import { createDatabase, type Db, migrateToLatest, SCHEMA_CHANGE_LOCK } from '../src/db/database.js';
import { completedResponseTopic } from '../src/events/topics.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { BenchResult } from './run.js';
import { cpuSeconds, type Node, startNode, stopNode } from './serve-nodes.js';
import type { ProducerSpec, ProducerStep, StepResult } from './webhooks.child.js';

const RATE = 400;
const PACED_S = 10;
const BURST = 3000;
const BACKLOG = 4000;
const MIXED_S = 5;
const FAST_MS = 50;
const SLOW_MS = 500;
const KEY = '0123456789abcdef0123456789abcdef';
const BRAND = 'bench';
const FAST_SURVEY = 'SV_webhookfast0001';
const SLOW_SURVEY = 'SV_webhookslow0001';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const epochNow = () => performance.timeOrigin + performance.now();

/** A receiver that answers 200 after `delayMs`, noting when each webhook-id arrived and how many it held at once. */
async function startReceiver(delayMs: number) {
  const arrivals = new Map<string, number>();
  /** `firstAbove32`: when more than 32 were first held at once (epoch ms). */
  const stats = { inFlight: 0, peak: 0, firstAbove32: Number.NaN };
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, epochNow());
      stats.inFlight++;
      stats.peak = Math.max(stats.peak, stats.inFlight);
      if (stats.inFlight > 32 && Number.isNaN(stats.firstAbove32)) stats.firstAbove32 = epochNow();
      for (const wake of waiters) wake();
      setTimeout(() => {
        stats.inFlight--;
        res.writeHead(200).end();
      }, delayMs);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  /** Resolves once `count` distinct events have arrived (rejects after `timeoutMs`). */
  const received = (count: number, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (arrivals.size < count) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`${url}: ${arrivals.size} of ${count} events arrived within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const reset = () => {
    arrivals.clear();
    Object.assign(stats, { peak: 0, firstAbove32: Number.NaN });
  };
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, arrivals, stats, received, reset, close };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Storage the bench and the worker process share: a SQLite file, or a fresh PostgreSQL schema. */
async function openStorage(engine: 'sqlite' | 'postgres') {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-webhooks-bench-'));
  const env: Record<string, string> = {
    FIELDWORK_DATA_DIR: dataDir,
    FIELDWORK_SECRET_KEY: randomBytes(32).toString('base64'),
  };
  if (engine === 'sqlite') {
    const database = createDatabase({ dataDir });
    const where = { dataDir };
    return { database, env, where, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
  const database = createDatabase({ dataDir, databaseUrl: PG_URL, pgSchema });
  await database.db.schema.createSchema(pgSchema).execute();
  const url = new URL(PG_URL);
  url.searchParams.set('options', `-c search_path=${pgSchema}`);
  env.DATABASE_URL = url.toString();
  const where = { dataDir, databaseUrl: PG_URL, pgSchema };
  const drop = async () => {
    const admin = createDatabase({ dataDir, databaseUrl: PG_URL });
    await admin.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${SCHEMA_CHANGE_LOCK})`.execute(trx);
      await trx.schema.dropSchema(pgSchema).ifExists().cascade().execute();
    });
    await admin.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { database, env, where, drop };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;

type Where = Pick<ProducerSpec, 'dataDir' | 'databaseUrl' | 'pgSchema'>;

/** Commits events in the producer process (webhooks.child.ts), step after step; per step, ids and commit times. */
async function produce(where: Where, steps: ProducerStep[]) {
  const spec: ProducerSpec = { ...where, organizationId: BRAND, steps };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'bench/webhooks.child.ts', JSON.stringify(spec)],
    { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
  );
  return (JSON.parse(stdout) as StepResult[]).map((result) => ({
    committed: new Map(result.committed),
    achieved: result.achieved,
  }));
}

/** p50 / p99 / max of commit→receipt, in ms. */
function latencies(committed: Map<string, number>, receiver: Receiver): string {
  const values = [...committed].map(([id, at]) => (receiver.arrivals.get(id) ?? Number.NaN) - at);
  values.sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(1);
  return `p50 ${f(percentile(values, 0.5))} ms, p99 ${f(percentile(values, 0.99))} ms, max ${f(values.at(-1) ?? Number.NaN)} ms`;
}

async function subscribe(database: Db, id: string, survey: string, url: string): Promise<void> {
  await database.db
    .insertInto('event_subscriptions')
    .values({
      organization_id: BRAND,
      id,
      topics: completedResponseTopic(survey),
      publication_url: url,
      encrypt: 1,
      shared_key: KEY,
      status: 'active',
      disabled_reason: null,
      created_at: new Date().toISOString(),
    })
    .execute();
}

async function runEngine(engine: 'sqlite' | 'postgres'): Promise<string[]> {
  const name = engine === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  const storage = await openStorage(engine);
  const { database } = storage;
  const fast = await startReceiver(FAST_MS);
  const slow = await startReceiver(SLOW_MS);
  let worker: Node | undefined;
  let closed = false;
  try {
    await migrateToLatest(database.db);
    await bootstrapOrganization(database.db, systemClock.now(), { brandId: BRAND });
    await subscribe(database, 'SUB_webhookbenchfast', FAST_SURVEY, fast.url);
    await subscribe(database, 'SUB_webhookbenchslow', SLOW_SURVEY, slow.url);
    // Only the worker and the producer touch the database from here on.
    await database.close();
    closed = true;
    // Deliveries only: its log is kept to warnings, in the storage's data directory.
    const log = join(storage.where.dataDir, 'worker.log');
    worker = await startNode('worker', 'worker', storage.env, log, ['--log-level', 'warn']);
    const { where } = storage;

    const cpuAtStart = cpuSeconds(worker.pid);
    fast.reset();
    const [one] = await produce(where, [{ surveyId: FAST_SURVEY, rate: RATE, seconds: PACED_S }]);
    if (!one) throw new Error('the producer reported nothing');
    await fast.received(one.committed.size, 60_000);
    const oneLatencies = latencies(one.committed, fast);
    const onePeak = fast.stats.peak;
    const oneCpu = cpuSeconds(worker.pid) - cpuAtStart;

    slow.reset();
    const [burst] = await produce(where, [{ surveyId: SLOW_SURVEY, burst: BURST }]);
    await slow.received(BURST, 120_000);
    const burstCommit = Math.min(...(burst?.committed.values() ?? []));
    const burstSeconds = (Math.max(...slow.arrivals.values()) - burstCommit) / 1000;
    const above32After = slow.stats.firstAbove32 - burstCommit;

    fast.reset();
    slow.reset();
    // The backlog, then at once the paced events, from one producer.
    const [, mixed] = await produce(where, [
      { surveyId: SLOW_SURVEY, burst: BACKLOG },
      { surveyId: FAST_SURVEY, rate: RATE, seconds: MIXED_S },
    ]);
    if (!mixed) throw new Error('the producer reported nothing');
    await fast.received(mixed.committed.size, 60_000);
    // How far the slow receiver had got when the last fast event was committed: still busy, or done.
    const lastFastCommit = Math.max(...mixed.committed.values());
    const slowAtFastEnd = [...slow.arrivals.values()].filter((at) => at <= lastFastCommit).length;
    await slow.received(BACKLOG, 120_000);
    const totalCpu = cpuSeconds(worker.pid) - cpuAtStart;
    const loads = `load average ${loadavg()
      .map((load) => load.toFixed(1))
      .join(', ')}`;

    return [
      `${name}: one --role worker process, receivers on 127.0.0.1, HMAC + AES-256 (${loads})`,
      `  ${RATE}/s for ${PACED_S} s (achieved ${one.achieved.toFixed(0)}/s) to a ${FAST_MS} ms receiver: commit→receipt ${oneLatencies}; peak ${onePeak} in flight; worker CPU ${((oneCpu / one.committed.size) * 1e6).toFixed(0)} µs per delivery (goal p50 < 100 ms, p99 < 1 s)`,
      `  ${BURST} at once to a ${SLOW_MS} ms receiver: peak ${slow.stats.peak} in flight (goal > 32), above 32 ${above32After.toFixed(0)} ms after the commit; all delivered in ${burstSeconds.toFixed(1)} s (${(BURST / burstSeconds).toFixed(0)}/s)`,
      `  ${RATE}/s for ${MIXED_S} s to the ${FAST_MS} ms receiver while the ${SLOW_MS} ms one works off ${BACKLOG}: commit→receipt ${latencies(mixed.committed, fast)}; the slow one had ${slowAtFastEnd} of ${BACKLOG} when the last of them was committed`,
      `  worker CPU over the three: ${totalCpu.toFixed(1)} s for ${one.committed.size + BURST + BACKLOG + mixed.committed.size} deliveries`,
    ];
  } finally {
    if (worker) await stopNode(worker);
    await fast.close();
    await slow.close();
    if (!closed) await database.close();
    await storage.drop();
  }
}

export default async function bench(): Promise<BenchResult> {
  const engines = (process.env.WEBHOOK_BENCH_ENGINES ?? 'sqlite,postgres').split(',') as (
    | 'sqlite'
    | 'postgres'
  )[];
  const lines: string[] = [];
  for (const engine of engines) lines.push(...(await runEngine(engine)));
  return { name: 'webhook delivery: commit→receipt at 400/s, in flight per receiver (issue 20)', lines };
}
