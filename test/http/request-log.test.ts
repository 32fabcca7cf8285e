import { Writable } from 'node:stream';
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
