/**
 * The processes of the benchmarks that run Fieldwork as a deployment does (scale-out, webhooks) and what
 * they read about them: nodes started as `fieldwork serve --role api|worker` from the sources (tsx), a
 * webhook receiver on 127.0.0.1 for the worker's deliveries, CPU time from /proc (Linux), and
 * PostgreSQL's pg_stat_activity sampled while the load runs (wait events of the bench's backends, and
 * their CPU time).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { serveFromSources } from '../test/helpers/serve-args.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLOCK_TICKS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Node {
  name: string;
  child: ChildProcess;
  pid: number;
  origin: string;
  log: string;
}

/**
 * `fieldwork serve --role <role>` on a free loopback port, its output (the start lines, then a log line a
 * request, as a serving node writes them) into `log`; resolves once it listens. `extraArgs` go after
 * the bench's own (`--log-level warn`, say).
 */
export async function startNode(
  name: string,
  role: 'api' | 'worker',
  env: Record<string, string>,
  log: string,
  extraArgs: readonly string[] = [],
): Promise<Node> {
  const out = openSync(log, 'a');
  const args = serveFromSources(role, '--host', '127.0.0.1', '--rate-limit', '0', '--allow-private-targets');
  const child = spawn(process.execPath, [...args, ...extraArgs], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const node = { name, child, pid: child.pid ?? 0, log };
  for (let waited = 0; waited < 60_000; waited += 100) {
    const origin = /listening on (http:\/\/[0-9.:]+)/.exec(readFileSync(log, 'utf8'))?.[1];
    if (origin) return { ...node, origin };
    if (child.exitCode !== null) break;
    await sleep(100);
  }
  await stopNode(node);
  throw new Error(`node ${name} did not start:\n${readFileSync(log, 'utf8').slice(-2000)}`);
}

/** SIGTERM (the node finishes what it serves), SIGKILL after 10 s. */
export async function stopNode(node: Pick<Node, 'child'>): Promise<void> {
  const { child } = node;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** CPU seconds (user + system) a process has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds the whole machine has been busy (every process, other helpers' included). */
export function machineBusySeconds(): number {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
  return (user + nice + system + irq + softirq + steal) / CLOCK_TICKS;
}

/** Answers every webhook at once and counts them (the worker's deliveries). */
export async function startReceiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, received: () => received, close };
}

interface ActivityRow {
  pid: number;
  application_name: string;
  backend_type: string;
  state: string | null;
  wait_event_type: string | null;
  wait_event: string | null;
  query: string;
}

/** What one sample saw: CPU seconds so far by process (`group pid`), the machine's, and the nodes' backends. */
interface Sample {
  at: number;
  cpu: Map<string, number>;
  machine: number;
  received: number;
  backends: ActivityRow[];
}

/**
 * Samples every `everyMs` until stopped: the CPU time of `processes` (named by group) and of this process,
 * the machine's busy time, `counter()`, and pg_stat_activity: the backends whose application_name starts
 * with `prefix` (the nodes': their state and wait event, their CPU time by node) and the cluster's
 * background processes (walwriter, checkpointer, autovacuum ...: their CPU time).
 */
export function startSampling(
  db: Db['db'],
  prefix: string,
  processes: [string, number][],
  counter: () => number,
  everyMs = 200,
) {
  const samples: Sample[] = [];
  let running = true;
  const tick = async () => {
    const { rows } = await sql<ActivityRow>`
      select pid, application_name, backend_type, state, wait_event_type, wait_event, left(query, 200) as query
      from pg_stat_activity
      where application_name like ${`${prefix}%`} or backend_type <> 'client backend'`.execute(db);
    const cpu = new Map(processes.map(([group, pid]) => [`${group} ${pid}`, cpuSeconds(pid)]));
    const own = process.cpuUsage();
    cpu.set(`bench (receiver, sampler) ${process.pid}`, (own.user + own.system) / 1e6);
    const backends = rows.filter((row) => row.backend_type === 'client backend');
    for (const row of rows) {
      const group = backends.includes(row)
        ? `pg ${row.application_name.slice(prefix.length)}`
        : 'pg background';
      cpu.set(`${group} ${row.pid}`, cpuSeconds(row.pid));
    }
    samples.push({
      at: performance.now(),
      cpu,
      machine: machineBusySeconds(),
      received: counter(),
      backends,
    });
  };
  const loop = (async () => {
    while (running) {
      const began = performance.now();
      await tick();
      await sleep(Math.max(0, everyMs - (performance.now() - began)));
    }
  })();
  // A failed sample is reported by stop(), not as an unhandled rejection meanwhile.
  loop.catch(() => {});
  const stop = async (): Promise<Sample[]> => {
    running = false;
    await loop;
    return samples;
  };
  return { stop };
}

export interface Window {
  samples: number;
  seconds: number;
  /** CPU seconds a second by group: a node, "load generators", "pg <node>", "pg background", "bench ...". */
  cpu: Map<string, number>;
  /** The whole machine's busy CPU seconds a second (other helpers' work included). */
  machine: number;
  /** `counter()` a second. */
  counted: number;
  /** The nodes' backends per sample, on average, by state and wait event ("active on CPU", "active Lock/tuple" ...). */
  states: [string, number][];
  /** Backends waiting on a heavyweight lock (Lock/*: rows, transactions, advisory ones), on average. */
  lockWaits: number;
  /** The statements those waits were in, with how many samples saw each. */
  lockStatements: [string, number][];
  /** The last statements of backends idle in a transaction (the node working between two statements). */
  idleInTransaction: [string, number][];
}

/** The samples taken from `from` to `to` (performance.now() times). */
export function summarise(all: Sample[], from: number, to: number): Window {
  const samples = all.filter((sample) => sample.at >= from && sample.at <= to);
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || first === last) throw new Error('too few samples in the measured window');
  const seconds = (last.at - first.at) / 1000;
  const cpu = new Map<string, number>();
  const seen = new Map<string, { first: number; last: number }>();
  for (const sample of samples)
    for (const [key, value] of sample.cpu) {
      if (Number.isNaN(value)) continue;
      const readings = seen.get(key);
      if (readings) readings.last = value;
      else seen.set(key, { first: value, last: value });
    }
  for (const [key, { first, last }] of seen) {
    const group = key.slice(0, key.lastIndexOf(' '));
    cpu.set(group, (cpu.get(group) ?? 0) + (last - first) / seconds);
  }
  return {
    samples: samples.length,
    seconds,
    cpu,
    machine: (last.machine - first.machine) / seconds,
    counted: (last.received - first.received) / seconds,
    ...activity(
      samples.flatMap((sample) => sample.backends),
      samples.length,
    ),
  };
}

/** The backends' states and waits, per sample. */
function activity(backends: ActivityRow[], samples: number) {
  const states = new Map<string, number>();
  const lockStatements = new Map<string, number>();
  const idleInTransaction = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  let lockWaits = 0;
  for (const row of backends) {
    const wait = row.wait_event_type ? ` ${row.wait_event_type}/${row.wait_event}` : ' on CPU';
    count(states, row.state === 'active' ? `active${wait}` : (row.state ?? 'unknown'));
    const statement = row.query.replace(/\s+/g, ' ');
    if (row.state === 'idle in transaction') count(idleInTransaction, statement);
    if (row.state === 'active' && row.wait_event_type === 'Lock') {
      lockWaits++;
      count(lockStatements, `${row.wait_event}: ${statement}`);
    }
  }
  const byCount = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    states: byCount(states).map(([key, n]): [string, number] => [key, n / samples]),
    lockWaits: lockWaits / samples,
    lockStatements: byCount(lockStatements),
    idleInTransaction: byCount(idleInTransaction),
  };
}
