import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import type { App } from '../../src/http/app-types.js';
import { bootstrapOrganization } from '../../src/modules/organizations/bootstrap.service.js';
import { openTestDatabase, testConfig, uniqueBrandId } from '../helpers/test-app.js';

const lines: string[] = [];
let app: App;
let database: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  app = await buildApp({
    config: testConfig(),
    database,
    clock: systemClock,
    logger: { level: 'info', stream },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.close();
  await drop();
});

it('writes one line per request, at completion, with the request id and never the token', async () => {
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: uniqueBrandId() });
  lines.length = 0;
  const url = `/API/v3/users/${org.userId}`;
  const res = await app.inject({ method: 'GET', url, headers: { 'X-API-TOKEN': org.apiToken } });
  expect(res.statusCode).toBe(200);
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toContain(org.apiToken);
  expect(JSON.parse(lines[0] as string)).toMatchObject({
    level: 30,
    msg: 'request completed',
    requestId: res.headers['x-request-id'],
    method: 'GET',
    url,
    statusCode: 200,
    responseTime: expect.any(Number),
  });
});

it('escapes the URL as JSON and writes nothing below the logger level', async () => {
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: uniqueBrandId() });
  const headers = { 'X-API-TOKEN': org.apiToken };
  lines.length = 0;
  const url = `/API/v3/users/${org.userId}?note="quoted"\\back\u00e9`;
  const res = await app.inject({ method: 'GET', url, headers });
  expect(lines).toHaveLength(1);
  expect(res.statusCode).toBe(200);
  // The injector percent-encodes the quotes and the é; the backslash reaches the line as it came.
  expect(JSON.parse(lines[0] as string).url).toBe(
    `/API/v3/users/${org.userId}?note=%22quoted%22\\back%C3%A9`,
  );

  app.log.level = 'warn';
  try {
    lines.length = 0;
    await app.inject({ method: 'GET', url: `/API/v3/users/${org.userId}`, headers });
    expect(lines).toHaveLength(0);
  } finally {
    app.log.level = 'info';
  }
});

/** An app whose logger has these pino options, for one test; closed by the caller. */
async function appWithLogger(logger: Record<string, unknown>) {
  const own = await openTestDatabase();
  const built = await buildApp({ config: testConfig(), database: own.database, clock: systemClock, logger });
  await built.ready();
  const org = await bootstrapOrganization(own.database.db, systemClock.now(), { brandId: uniqueBrandId() });
  const close = async () => {
    await built.close();
    await own.database.close();
    await own.drop();
  };
  return { app: built, org, close };
}

const collector = () => {
  const got: string[] = [];
  return { got, stream: { write: (line: string) => got.push(line) } };
};

// Issue 18: the line was built by hand and written to pino's stream directly, past pino's own write.
it('writes the request line through pino, so a multistream routes it by its own level', async () => {
  const info = collector();
  const errors = collector();
  const stream = pino.multistream([
    { level: 'info', stream: info.stream },
    { level: 'error', stream: errors.stream },
  ]);
  const { app: routed, org, close } = await appWithLogger({ level: 'info', stream });
  try {
    // The last line before the request is an error: a line that skips pino would be routed as one.
    routed.log.error('an earlier error');
    info.got.length = 0;
    errors.got.length = 0;
    const url = `/API/v3/users/${org.userId}`;
    const res = await routed.inject({ method: 'GET', url, headers: { 'X-API-TOKEN': org.apiToken } });
    expect(res.statusCode).toBe(200);
    expect(info.got.map((line) => JSON.parse(line).msg)).toEqual(['request completed']);
    expect(errors.got).toEqual([]);
  } finally {
    await close();
  }
});

it("applies the logger's formatters to the request line", async () => {
  const out = collector();
  const {
    app: formatted,
    org,
    close,
  } = await appWithLogger({
    level: 'info',
    formatters: { level: (label: string) => ({ severity: label.toUpperCase() }) },
    stream: out.stream,
  });
  try {
    const url = `/API/v3/users/${org.userId}`;
    const res = await formatted.inject({ method: 'GET', url, headers: { 'X-API-TOKEN': org.apiToken } });
    expect(res.statusCode).toBe(200);
    expect(out.got).toHaveLength(1);
    const line = JSON.parse(out.got[0] as string);
    expect(line).toMatchObject({ severity: 'INFO', msg: 'request completed', statusCode: 200, url });
    expect(line).not.toHaveProperty('level');
  } finally {
    await close();
  }
});
