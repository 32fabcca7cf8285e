import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/db/database.js';
import { buildTestApp, openTestDatabase, type TestApp } from '../helpers/test-app.js';
import {
  callMany,
  expectRefused,
  rateHeaders,
  remainingValues,
  statusCounts,
  upTo,
} from './rate-limit-helpers.js';

/**
 * Issue 17 item 4: API nodes that share Redis (127.0.0.1:6379) enforce one organisation's limit together.
 * Each node is a Fieldwork app of its own over one database, as two API processes are; they share only
 * the database, Redis and a clock that stands still unless a test moves it (time goes to Redis with each
 * call), so counts are exact. Every key of this run starts with its own prefix and is deleted at the end.
 */
const REDIS_URL = 'redis://127.0.0.1:6379';
const prefix = `fieldwork-test:${randomBytes(6).toString('hex')}:`;
const clock = manualClock('2026-03-01T09:00:00Z');
const admin = new Redis(REDIS_URL, { lazyConnect: true });
let database: Db;
let drop: () => Promise<void>;
const nodes: TestApp[] = [];

/** A node over the shared database; closed (without the database) at the end. */
async function node(config: Partial<Config>, logger?: Record<string, unknown>): Promise<TestApp> {
  const app = await buildTestApp({
    clock,
    database,
    // A loaded machine (the whole suite on 2 cores) may keep Redis past the 500 ms default, and a node that
    // times out passes calls unlimited until its clock (standing still here) moves on: counts are exact
    // only if no check times out. The test of a Redis that stops answering sets its own.
    config: { redisUrl: REDIS_URL, redisKeyPrefix: prefix, redisTimeoutMs: 10_000, ...config },
    ...(logger ? { logger } : {}),
  });
  nodes.push(app);
  return app;
}

beforeAll(async () => {
  await admin.connect();
  ({ database, drop } = await openTestDatabase());
});
afterAll(async () => {
  for (const app of nodes) await app.app.close();
  await database.close();
  await drop();
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

describe('two API nodes sharing Redis', () => {
  it('enforce one organisation’s limit together (30 a minute), and another organisation is unaffected', async () => {
    const [one, two] = [await node({ rateLimit: 30 }), await node({ rateLimit: 30 })];
    const org = await one.newOrganization();
    const other = await one.newOrganization();
    const onOne = await callMany(one, org.apiToken, 'GET', '/API/v3/whoami', 15);
    const onTwo = await callMany(two, org.apiToken, 'GET', '/API/v3/whoami', 15);
    expect([...onOne, ...onTwo].map((res) => res.status)).toEqual(Array(30).fill(200));
    // One count: the nodes' answers together say 29, 28, … 0 left.
    expect(remainingValues([...onOne, ...onTwo])).toEqual(upTo(30));
    expect(rateHeaders(onTwo[0]).limit).toBe('30');
    expect(await admin.exists(`${prefix}${org.brandId}:all`)).toBe(1);

    // One call drains every 2 s.
    for (const app of [two, one]) {
      const refused = await app.call(org.apiToken, 'GET', '/API/v3/whoami');
      expectRefused(refused, 'calls', 30);
      expect(refused.headers['retry-after']).toBe('2');
    }
    const unaffected = await two.call(other.apiToken, 'GET', '/API/v3/whoami');
    expect(unaffected.status).toBe(200);
    expect(rateHeaders(unaffected).remaining).toBe('29');

    clock.advance(2_000);
    expect((await one.call(org.apiToken, 'GET', '/API/v3/whoami')).status).toBe(200);
    expect((await two.call(org.apiToken, 'GET', '/API/v3/whoami')).status).toBe(429);
  });

  it('the real limit: 3,000 calls pass in a minute across both, the next gets 429 with Retry-After', async () => {
    const [one, two] = [await node({ rateLimit: 3000 }), await node({ rateLimit: 3000 })];
    const org = await one.newOrganization();
    const other = await one.newOrganization();
    const [onOne, onTwo] = await Promise.all([
      callMany(one, org.apiToken, 'GET', '/API/v3/whoami', 1500),
      callMany(two, org.apiToken, 'GET', '/API/v3/whoami', 1500),
    ]);
    expect(statusCounts([...onOne, ...onTwo])).toEqual({ 200: 3000 });

    const refused = await two.call(org.apiToken, 'GET', '/API/v3/whoami');
    expectRefused(refused, 'calls', 3000);
    expect(refused.headers['retry-after']).toBe('1');
    expect((await one.call(org.apiToken, 'GET', '/API/v3/whoami')).status).toBe(429);
    for (const app of [one, two]) {
      const res = await app.call(other.apiToken, 'GET', '/API/v3/whoami');
      expect(res.status).toBe(200);
    }
  });

  it('keep a bucket while the nodes’ clock says it holds calls, however much time Redis’s own clock sees pass', async () => {
    // At 3,000 a minute one call drains in 20 ms of the nodes' clock, which stands still here; Redis expires
    // keys by its own clock, which does not. A key that expired once that one call's 20 ms had passed on
    // Redis's clock would lose the call: the second node would answer 2,999 left again.
    const [one, two] = [await node({ rateLimit: 3000 }), await node({ rateLimit: 3000 })];
    const org = await one.newOrganization();
    expect(rateHeaders(await one.call(org.apiToken, 'GET', '/API/v3/whoami')).remaining).toBe('2999');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(rateHeaders(await two.call(org.apiToken, 'GET', '/API/v3/whoami')).remaining).toBe('2998');
  });

  it('share the per-endpoint buckets too: 100 export starts in all', async () => {
    const [one, two] = [await node({ rateLimit: 3000 }), await node({ rateLimit: 3000 })];
    const org = await one.newOrganization();
    const url = '/API/v3/surveys/SV_000000000000000/export-responses';
    // Counted before the survey is looked up: these answer 404, and count all the same.
    const calls = [
      ...(await callMany(one, org.apiToken, 'POST', url, 60, { format: 'csv' })),
      ...(await callMany(two, org.apiToken, 'POST', url, 40, { format: 'csv' })),
    ];
    expect(calls.map((res) => res.status)).toEqual(Array(100).fill(404));
    expectRefused(
      await one.call(org.apiToken, 'POST', url, { format: 'csv' }),
      'response export starts',
      100,
    );
    expect(await admin.exists(`${prefix}${org.brandId}:exportStart`)).toBe(1);
  });
});

/** Lines a node logs, to count its warnings. */
function logLines() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)));
      callback();
    },
  });
  return { lines, logger: { level: 'info', stream } };
}

const said = (lines: { msg: string }[], text: string) =>
  lines.filter((line) => line.msg.includes(text)).length;

describe('when Redis fails, calls pass (fail open) and the node says so once', () => {
  it('a Redis that cannot be reached: every call passes, one warning', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const { lines, logger } = logLines();
    const app = await node(
      { rateLimit: 30, redisUrl: `redis://127.0.0.1:${port}`, redisTimeoutMs: 500 },
      logger,
    );
    const org = await app.newOrganization();
    const calls = await callMany(app, org.apiToken, 'GET', '/API/v3/whoami', 40);
    expect(calls.map((res) => res.status)).toEqual(Array(40).fill(200));
    expect(said(lines, 'Redis is unreachable')).toBe(1);
    expect(lines.filter((line) => line.level === 40)).toHaveLength(1);
  });

  it('a Redis that stops answering: calls pass, one warning; limits hold again once it answers', async () => {
    const proxy = await freezableProxy(6379);
    try {
      const { lines, logger } = logLines();
      const app = await node(
        { rateLimit: 30, redisUrl: `redis://127.0.0.1:${proxy.port}`, redisTimeoutMs: 2_000 },
        logger,
      );
      const org = await app.newOrganization();
      const firstCall = await app.call(org.apiToken, 'GET', '/API/v3/whoami');
      expect(firstCall.status, JSON.stringify(firstCall.body)).toBe(200);

      proxy.freeze();
      const started = Date.now();
      const frozen = await callMany(app, org.apiToken, 'GET', '/API/v3/whoami', 200);
      expect(frozen.map((res) => res.status)).toEqual(Array(200).fill(200));
      // The first batch waits for the command timeout (2 s here); the next seven pass without asking Redis
      // (waiting, they would take 16 s).
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(said(lines, 'Redis is unreachable')).toBe(1);

      proxy.thaw();
      clock.advance(1_000);
      const after = await app.newOrganization();
      const calls = await callMany(app, after.apiToken, 'GET', '/API/v3/whoami', 31);
      expect(statusCounts(calls)).toEqual({ 200: 30, 429: 1 });
      expectRefused(calls.find((res) => res.status === 429) as (typeof calls)[number], 'calls', 30);
      expect(said(lines, 'Redis answers again')).toBe(1);
      expect(said(lines, 'Redis is unreachable')).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});

/** A TCP proxy to a port on 127.0.0.1 that can stop passing requests on (as a hung server would). */
async function freezableProxy(target: number) {
  const pairs: { client: Socket; upstream: Socket }[] = [];
  let frozen = false;
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) socket.on('error', () => {});
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.pipe(client);
    if (!frozen) client.pipe(upstream);
    pairs.push({ client, upstream });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    freeze() {
      frozen = true;
      for (const { client, upstream } of pairs) client.unpipe(upstream);
    },
    thaw() {
      frozen = false;
      for (const { client, upstream } of pairs) client.pipe(upstream);
    },
    close: async () => {
      for (const { client } of pairs) client.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
