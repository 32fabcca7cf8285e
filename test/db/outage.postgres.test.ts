import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, migrateToLatest, SCHEMA_CHANGE_LOCK } from '../../src/db/database.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { createDirectoryList } from '../contacts/contacts-helpers.js';
import {
  eventually,
  expectUnavailable,
  type OutageApp,
  startOutageApp,
  TIMEOUTS,
  type Timed,
  timed,
} from './outage-fixtures.js';

/**
 * Issue 19, defect 1: PostgreSQL goes away under a running Fieldwork (its connections terminated, the
 * server restarted, the server frozen). The process survives, requests fail fast with 503 FW_SRV_2,
 * nothing stored is lost, and the service recovers once the server is back, without a restart.
 */
let o: OutageApp;
beforeAll(async () => {
  o = await startOutageApp();
});
afterAll(() => o?.close());

const listsUrl = () => `/API/v3/directories/${o.org.directoryId}/mailinglists`;

async function listNames(): Promise<string[]> {
  const res = await o.t.call(o.org.apiToken, 'GET', listsUrl());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.elements.map((list: { name: string }) => list.name).sort();
}

/** Several requests at once, so that the pool holds several idle connections afterwards. */
async function fillPool(): Promise<void> {
  const answers = await Promise.all(Array.from({ length: 6 }, () => timed(o, 'GET', listsUrl())));
  expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
}

it('survives its pooled connections being terminated, and the next requests succeed', async () => {
  await createDirectoryList(o.t, o.org.apiToken, o.org.directoryId, 'before termination');
  await fillPool();
  // The pool names itself (application_name), so only its backends are terminated.
  const terminated = await o.cluster.query<{ pid: number }>(
    "select pid, pg_terminate_backend(pid) from pg_stat_activity where application_name = 'fieldwork'",
  );
  expect(terminated.length).toBeGreaterThan(0);
  // Each idle connection reports its loss on the pool: with no listener there, the process would exit.
  await eventually(() => o.poolLog.length >= terminated.length, 'every lost connection is reported');
  expect(o.poolLog.every((entry) => isDatabaseUnavailable(entry.err))).toBe(true);

  expect(await listNames()).toContain('before termination');
  await createDirectoryList(o.t, o.org.apiToken, o.org.directoryId, 'after termination');
  expect(await listNames()).toEqual(expect.arrayContaining(['after termination', 'before termination']));
});

it('answers 503 FW_SRV_2 at once while the server is stopped, and recovers when it starts again', async () => {
  await createDirectoryList(o.t, o.org.apiToken, o.org.directoryId, 'before restart');
  const before = await listNames();
  await fillPool();
  await o.cluster.stop();
  const answers: Timed[] = [];
  try {
    answers.push(await timed(o, 'GET', listsUrl()));
    answers.push(await timed(o, 'POST', listsUrl(), { name: 'during restart' }));
    answers.push(await timed(o, 'GET', '/health'));
  } finally {
    await o.cluster.start();
  }
  for (const res of answers) expectUnavailable(res);
  expect((await timed(o, 'GET', '/health')).status).toBe(200);
  expect(await listNames()).toEqual(before);
  await createDirectoryList(o.t, o.org.apiToken, o.org.directoryId, 'after restart');
  expect(await listNames()).toEqual([...before, 'after restart'].sort());
});

it('answers 503 FW_SRV_2 within its limits while the server is frozen, and recovers when it thaws', async () => {
  const before = await listNames();
  await fillPool();
  o.cluster.freeze();
  const answers: Timed[] = [];
  let health: Timed | undefined;
  try {
    // On a pooled connection nothing answers: /health gives up at its own limit, before the query timeout.
    health = await timed(o, 'GET', '/health');
    // More requests than idle connections: those on pooled ones meet the query timeout, the others
    // the connect timeout (a stopped postmaster's port accepts the connection and never answers).
    answers.push(...(await Promise.all(Array.from({ length: 8 }, () => timed(o, 'GET', listsUrl())))));
    answers.push(await timed(o, 'POST', listsUrl(), { name: 'while frozen' }));
    answers.push(await timed(o, 'GET', '/health'));
  } finally {
    o.cluster.thaw();
  }
  expectUnavailable(health);
  expect(health.ms).toBeLessThan(TIMEOUTS.queryMs);
  for (const res of answers) expectUnavailable(res);
  await eventually(async () => (await timed(o, 'GET', '/health')).status === 200, '/health answers 200');
  // The write sent while frozen never committed: its connection was dropped before an answer.
  expect(await listNames()).toEqual(before);
});

it('cancels a statement that runs past the statement timeout, as unavailable', async () => {
  const error = await sql`select pg_sleep(30)`.execute(o.database.db).catch((thrown: unknown) => thrown);
  // 57014 query_canceled comes from the server (statement_timeout); the client's own limit is later.
  expect((error as { code?: string }).code).toBe('57014');
  expect(isDatabaseUnavailable(error)).toBe(true);
  expect((await timed(o, 'GET', '/health')).status).toBe(200);
});

it('migrates without the request limits: it waits for another node migrating longer than they allow', async () => {
  const schema = `m_${randomBytes(6).toString('hex')}`;
  await o.cluster.query(`create schema ${schema}`);
  const other = createDatabase({
    databaseUrl: o.cluster.url,
    dataDir: ':memory:',
    pgSchema: schema,
    pgTimeouts: TIMEOUTS,
  });
  try {
    // Another node holds the migration lock for longer than a statement may run (and than the query timeout).
    const migrated = await o.database.db.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
      const migrating = migrateToLatest(other.db);
      migrating.catch(() => {}); // awaited below; a failure meanwhile is no unhandled rejection
      const holdMs = TIMEOUTS.queryMs + 500;
      await new Promise((resolve) => setTimeout(resolve, holdMs));
      await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
      return migrating;
    });
    expect(migrated.length).toBeGreaterThan(0);
    const tables = await o.cluster.query('select 1 from pg_tables where schemaname = $1', [schema]);
    expect(tables.length).toBeGreaterThan(0);
  } finally {
    await other.close();
  }
});
