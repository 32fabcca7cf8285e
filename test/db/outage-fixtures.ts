import { expect } from 'vitest';
import { createDatabase, type Db, migrateToLatest, type PgTimeouts } from '../../src/db/database.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { type PrivateCluster, startPrivateCluster } from '../helpers/private-postgres.js';
import { type ApiResponse, buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 19, defect 1: the app on a PostgreSQL cluster of the test's own, which the outage tests stop,
 * restart and freeze. The pool's limits are short so that those tests run in seconds; the query timeout
 * is twice /health's own limit (app.ts, 2 s), so a test can tell which one answered.
 */
export const TIMEOUTS: PgTimeouts = {
  connectMs: 1_000,
  statementMs: 3_000,
  idleInTransactionMs: 5_000,
  queryMs: 4_000,
};

/** "Fails fast": every request completes well within this, however the server went away. */
export const ANSWERED_WITHIN_MS = 6_000;

/** What the pool or a worker reported, in place of a logger. */
export interface Captured {
  message: string;
  err: unknown;
}

export interface OutageApp {
  cluster: PrivateCluster;
  database: Db;
  t: TestApp;
  org: BootstrapResult;
  /** What the pool reported about lost connections. */
  poolLog: Captured[];
  /** Destroys the cluster first: should a test end with it frozen, closing the app would wait on it. */
  close(): Promise<void>;
}

export async function startOutageApp(): Promise<OutageApp> {
  const cluster = await startPrivateCluster();
  const database = createDatabase({ databaseUrl: cluster.url, dataDir: ':memory:', pgTimeouts: TIMEOUTS });
  try {
    await migrateToLatest(database.db);
    const t = await buildTestApp({ database, config: { allowPrivateTargets: true } });
    const poolLog: Captured[] = [];
    // After buildApp, which hands the pool the app's (silent) logger.
    database.useLog({ warn: (details, message) => poolLog.push({ message, err: errOf(details) }) });
    const org = await t.newOrganization({ targetAudience: true });
    const close = async () => {
      await cluster.destroy();
      await t.close();
    };
    return { cluster, database, t, org, poolLog, close };
  } catch (error) {
    await cluster.destroy();
    await database.close();
    throw error;
  }
}

export const errOf = (details: object) => (details as { err?: unknown }).err;

export type Timed = ApiResponse & { ms: number };

/** A call, with how long it took to answer; no token for /health. */
export async function timed(o: OutageApp, method: string, url: string, body?: unknown): Promise<Timed> {
  const started = performance.now();
  const token = url === '/health' ? undefined : o.org.apiToken;
  const res = await o.t.call(token, method, url, body);
  return { ...res, ms: performance.now() - started };
}

export function expectUnavailable(res: Timed): void {
  expect(res.status, JSON.stringify(res.body)).toBe(503);
  expect(res.body.meta.httpStatus).toBe('503 - Service Unavailable');
  expect(res.body.meta.error.errorCode).toBe('FW_SRV_2');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  expect(res.ms).toBeLessThan(ANSWERED_WITHIN_MS);
}

/** Polls until `check` holds; bounded in count and time. */
export async function eventually(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 300 && Date.now() < deadline; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting until ${what}`);
}
