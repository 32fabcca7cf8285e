import { execFile } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory on a free loopback port, for tests that
 * stop, restart or freeze the server: never the shared one on 5432, which other test files are using.
 * As root it runs as the `postgres` user (the server refuses to run as root).
 */
export interface PrivateCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication). */
  url: string;
  /** `pg_ctl stop -m fast`: what a restart or failover does to connections (57P01 admin_shutdown). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections stay open and nothing answers. */
  freeze(): void;
  thaw(): void;
  /** Runs one statement on a connection of its own, bounded in time. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  /** Thaws, stops and deletes everything; safe to call after any failure, and twice. */
  destroy(): Promise<void>;
}

const run = promisify(execFile);
const EXEC_TIMEOUT_MS = 30_000;

/** Trust authentication for the `postgres` role; no fsync, since the cluster is thrown away. */
const INITDB_OPTIONS = ['-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'];
const DIR_PREFIX = 'fieldwork-pg-';
const OWNER_FILE = 'owner.pid';

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const bin = postgresBinaries();
  await reapOrphans(bin);
  const dir = mkdtempSync(join(tmpdir(), DIR_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid));
  if (runsAsRoot()) chownSync(dir, postgresUid(), postgresUid());
  const data = join(dir, 'data');
  const port = await freePort();
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pgCtl = (...args: string[]) => pgCtlOn(bin, data, args);
  let frozen = false;
  let destroyed = false;
  const cluster: PrivateCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => void (await pgCtl('stop', '-m', 'fast')),
    start: async () => void (await pgCtl('start', '-o', serverOptions, '-l', join(dir, 'log'))),
    freeze: () => {
      signalAll(data, 'SIGSTOP');
      frozen = true;
    },
    thaw: () => {
      signalAll(data, 'SIGCONT');
      frozen = false;
    },
    query: (text, values) => queryOnce(cluster.url, text, values),
    destroy: async () => {
      if (destroyed) return;
      destroyed = true;
      if (frozen) cluster.thaw();
      await pgCtl('stop', '-m', 'immediate').catch(() => killPostmaster(data));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await asPostgres(join(bin, 'initdb'), ['-D', data, ...INITDB_OPTIONS]);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

const runsAsRoot = () => process.getuid?.() === 0;

/** The server refuses to run as root: as root, run its programs as the `postgres` user. */
function asPostgres(program: string, args: string[]) {
  const [file, argv] = runsAsRoot()
    ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
    : [program, args];
  return run(file, argv, { timeout: EXEC_TIMEOUT_MS });
}

function pgCtlOn(bin: string, data: string, args: string[]) {
  return asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-w', '-t', '20', ...args]);
}

/** Postmaster first when freezing (so it starts no new backend), last when thawing. */
function signalAll(data: string, signal: 'SIGSTOP' | 'SIGCONT'): void {
  const postmaster = postmasterPid(data);
  if (postmaster === undefined) return;
  const pids = [postmaster, ...childrenOf(postmaster)];
  for (const pid of signal === 'SIGSTOP' ? pids : pids.reverse()) {
    try {
      process.kill(pid, signal);
    } catch {
      // exited meanwhile
    }
  }
}

/**
 * Clusters left by a test process that was killed before its afterAll ran (its owner pid is gone): thawed,
 * stopped and deleted, so that they do not pile up. A cluster whose owner still runs is left alone.
 */
async function reapOrphans(bin: string): Promise<void> {
  for (const name of readdirSync(tmpdir()).filter((entry) => entry.startsWith(DIR_PREFIX))) {
    const dir = join(tmpdir(), name);
    const owner = Number(readFileIfExists(join(dir, OWNER_FILE)));
    if (!Number.isInteger(owner) || owner <= 0 || isAlive(owner)) continue;
    const data = join(dir, 'data');
    signalAll(data, 'SIGCONT');
    await pgCtlOn(bin, data, ['stop', '-m', 'immediate']).catch(() => killPostmaster(data));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A file's text, or '' when it does not exist (or vanished, as a process's /proc entry may). */
function readFileIfExists(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The newest installed server's binaries (Debian layout), unless PG_BIN names a directory. */
function postgresBinaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+$/.test(v)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL server binaries under ${root}; set PG_BIN`);
  return join(root, newest, 'bin');
}

function postgresUid(): number {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const uid = Number(line?.split(':')[2]);
  if (!Number.isInteger(uid)) throw new Error('no postgres user to run the private cluster as');
  return uid;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** The first line of postmaster.pid, if that process is still this cluster's postmaster (pids are reused). */
function postmasterPid(data: string): number | undefined {
  const pid = Number(readFileIfExists(join(data, 'postmaster.pid')).split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return readFileIfExists(`/proc/${pid}/cmdline`).includes(data) ? pid : undefined;
}

/** Direct children from /proc: the postmaster's backends and background processes. */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat, after the parenthesised command name.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // exited while listing
    }
  }
  return children;
}

/** Last resort when pg_ctl cannot stop it: only the postmaster this helper started, by its pid. */
function killPostmaster(data: string): void {
  const pid = postmasterPid(data);
  if (pid === undefined) return;
  for (const target of [...childrenOf(pid), pid]) {
    try {
      process.kill(target, 'SIGKILL');
    } catch {
      // exited meanwhile
    }
  }
}

async function queryOnce<T extends pg.QueryResultRow>(url: string, text: string, values?: unknown[]) {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: 5_000,
    query_timeout: 5_000,
  });
  client.on('error', () => {}); // a lost connection fails the query below; that is the report
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
