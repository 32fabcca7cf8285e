/**
 * Issue 20, PostgreSQL scale-out: real nodes over one database (a fresh schema of the machine's
 * PostgreSQL): one `fieldwork serve --role worker` (delivering each completion event to a receiver here on
 * 127.0.0.1) and two `--role api` processes, from the TypeScript sources (tsx), logging as serving nodes do
 * (to files). The same respondents (the pets survey, 3 pages) take the survey first all through one API
 * node, then half through each; two load generator processes (runRespondents' child) carry half the
 * respondents each in both runs, so only where the links point changes. The runs alternate, ROUNDS times.
 *
 * Per run: completed responses a second in all and per node, page p50/p99, errors; CPU seconds a second of
 * each node, the load generators, PostgreSQL's backends (per node, by application_name) and background
 * processes, and the whole machine (other helpers' work included), from /proc over the measured window;
 * and pg_stat_activity every 200 ms: backends by state and wait event, so waits on a lock (a row, a
 * transaction, an advisory lock) that would serialise the nodes show, with their statements.
 * `SCALEOUT_RESPONDENTS` (default 32), `SCALEOUT_S` (measured seconds, default 10), `SCALEOUT_ROUNDS` (2).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { systemClock } from '../src/clock.js';
import type { Db } from '../src/db/database.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { BenchResult } from './run.js';
import {
  type Node,
  startNode,
  startReceiver,
  startSampling,
  stopNode,
  summarise,
  type Window,
} from './serve-nodes.js';
import {
  createActiveSurvey,
  openBenchDatabase,
  PETS,
  PG_URL,
  type RespondentsResult,
  type RespondentsRun,
  startRespondents,
} from './survey-taking.js';

const RESPONDENTS = Number(process.env.SCALEOUT_RESPONDENTS ?? 32);
const DURATION_S = Number(process.env.SCALEOUT_S ?? 10);
const ROUNDS = Number(process.env.SCALEOUT_ROUNDS ?? 2);
const WARM_UP_S = 3;
const CORES = availableParallelism();

interface Cluster {
  database: Db;
  prefix: string;
  surveyId: string;
  nodes: Node[];
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  generators: RespondentsRun[];
}

interface Run {
  nodes: number;
  perNode: Map<string, number>;
  total: number;
  results: RespondentsResult[];
  window: Window;
}

/**
 * Two load generators, half the respondents each, at `targets` (one node, or one each), sampled all along.
 * The window summarised is the one every generator was under load in: a generator exits a little after
 * its warm-up and measured time, so it ran from before its exit less that time; the last second before
 * the first exit (respondents finishing their last survey) is left out.
 */
async function measure(cluster: Cluster, targets: Node[]): Promise<Run> {
  const aimed = [0, 1].map((i) => targets[i % targets.length] as Node);
  const generators = aimed.map((target, i) =>
    startRespondents({
      origin: target.origin,
      surveyId: cluster.surveyId,
      respondents: i === 0 ? Math.ceil(RESPONDENTS / 2) : Math.floor(RESPONDENTS / 2),
      warmUpS: WARM_UP_S,
      durationS: DURATION_S,
      pages: PETS.pages,
      endText: PETS.endText,
    }),
  );
  cluster.generators = generators;
  const exits = Promise.all(generators.map((g) => g.result.then(() => performance.now())));
  const processes: [string, number][] = [
    ...cluster.nodes.map((n): [string, number] => [n.name, n.pid]),
    ...generators.map((g): [string, number] => ['load generators', g.pid]),
  ];
  const sampling = startSampling(cluster.database.db, cluster.prefix, processes, cluster.receiver.received);
  let ended: number[];
  try {
    ended = await exits;
  } finally {
    await sampling.stop();
  }
  const results = await Promise.all(generators.map((g) => g.result));
  const from = Math.max(...ended) - (WARM_UP_S + DURATION_S - 0.5) * 1000;
  const window = summarise(await sampling.stop(), from, Math.min(...ended) - 1000);
  const perNode = new Map<string, number>();
  for (const [i, r] of results.entries()) {
    const name = aimed[i]?.name ?? '';
    perNode.set(name, (perNode.get(name) ?? 0) + r.completedPerS);
  }
  const total = sumOf(results.map((r) => r.completedPerS));
  return { nodes: targets.length, perNode, total, results, window };
}

const f2 = (n: number) => n.toFixed(2);
const sumOf = (values: Iterable<number>) => [...values].reduce((a, b) => a + b, 0);
const cpuOf = (run: Run, test: (group: string) => boolean) =>
  sumOf([...run.window.cpu].filter(([group]) => test(group)).map(([, v]) => v));
const apiCpu = (run: Run) => cpuOf(run, (group) => group.startsWith('api'));
const pgCpu = (run: Run) => cpuOf(run, (group) => group.startsWith('pg ') && group !== 'pg background');

function describe(run: Run, round: number): string[] {
  const { window } = run;
  const errors = sumOf(run.results.map((r) => r.errors));
  const firstError = run.results.find((r) => r.firstError)?.firstError;
  const nodes = [...run.perNode].map(([name, rate]) => `${name} ${rate.toFixed(1)}`).join(', ');
  const pages = (key: 'p50Ms' | 'p99Ms') => run.results.map((r) => r[key].toFixed(1)).join('/');
  const perResponse = (cpu: number) => ((cpu / Math.max(run.total, 0.001)) * 1000).toFixed(1);
  const cpu = [...window.cpu].sort(([a], [b]) => a.localeCompare(b));
  const states = window.states.map(([state, n]) => `${state} ${n.toFixed(2)}`).join(', ');
  const top = (list: [string, number][]) =>
    list.slice(0, 2).map(([statement, n]) => `${n}× ${statement.slice(0, 90)}`);
  const locks = top(window.lockStatements);
  const held = top(window.idleInTransaction);
  return [
    `${run.nodes} api node${run.nodes > 1 ? 's' : ''}, round ${round}: ${run.total.toFixed(1)} responses/s (${nodes}), ` +
      `page p50 ${pages('p50Ms')} p99 ${pages('p99Ms')} ms (per load generator), ${errors} errors` +
      `${firstError ? ` (${firstError})` : ''}; worker delivered ${window.counted.toFixed(1)}/s`,
    `  CPU s/s over ${window.seconds.toFixed(1)} s: ${cpu.map(([group, v]) => `${group} ${f2(v)}`).join(', ')}; ` +
      `measured ${f2(sumOf(window.cpu.values()))}, machine ${f2(window.machine)} of ${CORES} cores busy (other work included)`,
    `  CPU ms a response: api ${perResponse(apiCpu(run))}, pg backends ${perResponse(pgCpu(run))}, ` +
      `load generators ${perResponse(window.cpu.get('load generators') ?? 0)}`,
    `  pg_stat_activity, ${window.samples} samples (the nodes' backends, mean a sample): ${states}; ` +
      `waiting on a lock ${f2(window.lockWaits)}${locks.length ? `: ${locks.join(' | ')}` : ''}`,
    ...(held.length ? [`  idle in transaction after: ${held.join(' | ')}`] : []),
  ];
}

const mean = (runs: Run[], pick: (run: Run) => number) => sumOf(runs.map(pick)) / Math.max(runs.length, 1);

/** The ratio, what limits the rate, and whether the nodes waited on one another. */
function conclude(one: Run[], two: Run[]): string {
  const ratio = sumOf(two.map((r) => r.total)) / Math.max(sumOf(one.map((r) => r.total)), 0.001);
  const cpu = (group: string) => mean(two, (r) => r.window.cpu.get(group) ?? 0);
  const machine = mean(two, (r) => r.window.machine);
  const ours = mean(two, (r) => sumOf(r.window.cpu.values()));
  const split =
    `api ${f2(cpu('api1'))} + ${f2(cpu('api2'))}, worker ${f2(cpu('worker'))}, ` +
    `load generators ${f2(cpu('load generators'))}, pg ${f2(mean(two, pgCpu))} + background ` +
    `${f2(cpu('pg background'))}, other work ${f2(Math.max(0, machine - ours))}`;
  const limit =
    machine >= 0.9 * CORES
      ? `the ${CORES} cores, saturated (${f2(machine)} busy, this bench's processes ${f2(ours)}: ${split})`
      : `not the CPU (${f2(machine)} of ${CORES} busy, this bench's processes ${f2(ours)}: ${split}); see the wait events`;
  const lockWaits = mean(two, (r) => r.window.lockWaits);
  const top = two.flatMap((r) => r.window.lockStatements).sort((a, b) => b[1] - a[1])[0];
  const serialised =
    lockWaits >= 0.5
      ? `the nodes SERIALISE: ${f2(lockWaits)} backends wait on a lock on average, most on ${top?.[0]}`
      : `nothing serialises the nodes: ${f2(lockWaits)} backends wait on a lock on average`;
  // What a response costs the nodes and PostgreSQL stays put when nothing contends, however noisy the rates.
  const costMs = (runs: Run[]) =>
    (sumOf(runs.map((r) => apiCpu(r) + pgCpu(r))) / Math.max(sumOf(runs.map((r) => r.total)), 0.001)) * 1000;
  const cost = `api + pg CPU a response ${costMs(one).toFixed(1)} ms on one node, ${costMs(two).toFixed(1)} ms on two`;
  return `conclusion: two api nodes / one = ${f2(ratio)}; limit: ${limit}; ${serialised}; ${cost}`;
}

/**
 * A brand, the worker and two API nodes on the bench's schema (pushed to `nodes` as they start, so they are
 * stopped whatever fails), and the pets survey subscribed to the receiver; returns the survey's id.
 */
async function startCluster(cluster: Omit<Cluster, 'surveyId'>, dataDir: string): Promise<string> {
  const { database, nodes } = cluster;
  const schema = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), {
    brandId: `scale${randomBytes(4).toString('hex')}`,
  });
  const secretKey = randomBytes(32).toString('base64');
  const env = (name: string) => {
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema.rows[0]?.schema}`);
    url.searchParams.set('application_name', `${cluster.prefix}${name}`);
    return { DATABASE_URL: url.toString(), FIELDWORK_DATA_DIR: dataDir, FIELDWORK_SECRET_KEY: secretKey };
  };
  const roles: [string, 'api' | 'worker'][] = [
    ['api1', 'api'],
    ['api2', 'api'],
    ['worker', 'worker'],
  ];
  const started = await Promise.allSettled(
    roles.map(([name, role]) => startNode(name, role, env(name), join(dataDir, `${name}.log`))),
  );
  for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const headers = { 'x-api-token': org.apiToken, 'content-type': 'application/json' };
  return createActiveSurvey({ origin: nodes[0]?.origin ?? '', headers }, PETS.qsf, cluster.receiver.url);
}

/** Each API node's JIT warmed alike before anything is measured. */
async function warmUp(cluster: Cluster): Promise<void> {
  const { pages, endText } = PETS;
  const spec = { surveyId: cluster.surveyId, respondents: 8, warmUpS: 1, durationS: 3, pages, endText };
  const apis = cluster.nodes.filter((n) => n.name.startsWith('api'));
  cluster.generators = apis.map((n) => startRespondents({ ...spec, origin: n.origin }));
  await Promise.all(cluster.generators.map((g) => g.result));
}

export default async function bench(): Promise<BenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fieldwork-scale-out-'));
  const { database, drop } = await openBenchDatabase('postgres');
  const prefix = `fwscale_${randomBytes(4).toString('hex')}_`;
  const base = { database, prefix, nodes: [] as Node[], generators: [] as RespondentsRun[] };
  let receiver: Cluster['receiver'] | undefined;
  const lines = [
    `${RESPONDENTS} respondents in two load generator processes (half each); each run ${WARM_UP_S} s warm-up then ` +
      `${DURATION_S} s measured, CPU and pg_stat_activity sampled every 200 ms while every generator is under load; ${ROUNDS} rounds in alternation; ` +
      `nodes from the sources (tsx), --rate-limit 0, request logs to files; ${CORES} cores shared with PostgreSQL and other work`,
  ];
  try {
    receiver = await startReceiver();
    const surveyId = await startCluster({ ...base, receiver }, dataDir);
    const cluster: Cluster = Object.assign(base, { receiver, surveyId });
    const [api1, api2] = cluster.nodes;
    if (!api1 || !api2) throw new Error('the API nodes did not start');
    await warmUp(cluster);
    const one: Run[] = [];
    const two: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      one.push(await measure(cluster, [api1]));
      lines.push(...describe(one.at(-1) as Run, round));
      two.push(await measure(cluster, [api1, api2]));
      lines.push(...describe(two.at(-1) as Run, round));
    }
    lines.push(conclude(one, two));
    return {
      name: 'PostgreSQL scale-out: one, then two `--role api` nodes and a `--role worker` over one database',
      lines,
    };
  } finally {
    for (const generator of base.generators) generator.stop();
    await Promise.all(base.nodes.map(stopNode));
    await receiver?.close();
    await database.close();
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
