import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { systemClock } from '../../src/clock.js';
import { createUserWithToken } from '../helpers/factories.js';
import { organizationRows } from '../helpers/rows.js';
import {
  type ApiResponse,
  buildTestApp,
  openTestDatabase,
  type TestApp,
  testConfig,
} from '../helpers/test-app.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let admin: { apiToken: string; userId: string; brandId: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.newOrganization();
});
afterAll(() => t.close());

/** The rows a refused create could have written: compared before and after it. */
const identityRows = () =>
  organizationRows(t, admin.brandId, ['users', 'divisions', 'groups', 'group_members']);

function expectError(res: ApiResponse, status: number, httpStatus: string, code?: string) {
  expect(res.status).toBe(status);
  expect(res.body).not.toHaveProperty('result');
  expect(res.body.meta.httpStatus).toBe(httpStatus);
  expect(res.body.meta.requestId).toMatch(UUID_V4);
  expect(typeof res.body.meta.error.errorMessage).toBe('string');
  if (code) expect(res.body.meta.error.errorCode).toBe(code);
  else expect(res.body.meta.error).not.toHaveProperty('errorCode');
}

describe('the envelope', () => {
  it('wraps a success in result and meta, with the request id also in X-Request-Id', async () => {
    const res = await t.call(admin.apiToken, 'GET', '/API/v3/whoami');
    expect(res.status).toBe(200);
    expect(res.body.meta.httpStatus).toBe('200 - OK');
    expect(res.body.meta.requestId).toMatch(UUID_V4);
    expect(res.headers['x-request-id']).toBe(res.body.meta.requestId);
    expect(res.body.result.userId).toBe(admin.userId);
  });

  it('gives every request its own id', async () => {
    const a = await t.call(admin.apiToken, 'GET', '/API/v3/whoami');
    const b = await t.call(admin.apiToken, 'GET', '/API/v3/whoami');
    expect(a.body.meta.requestId).not.toBe(b.body.meta.requestId);
  });
});

describe('authentication errors (COMPAT.md)', () => {
  it('answers 400 ATP_2 when no token is sent', async () => {
    const res = await t.call(undefined, 'GET', '/API/v3/whoami');
    expectError(res, 400, '400 - Bad Request', 'ATP_2');
    expect(res.body.meta.error.errorMessage).toBe('Expected authorization in headers, but none provided.');
  });

  it('answers 401 DCD_7 for an unknown token', async () => {
    const res = await t.call('A'.repeat(40), 'GET', '/API/v3/whoami');
    expectError(res, 401, '401 - Unauthorized', 'DCD_7');
    expect(res.body.meta.error.errorMessage).toBe('Unrecognized X-API-TOKEN.');
  });

  it('matches the header name case-insensitively', async () => {
    const raw = await t.app.inject({
      method: 'GET',
      url: '/API/v3/whoami',
      headers: { 'X-API-TOKEN': admin.apiToken },
    });
    expect(raw.statusCode).toBe(200);
    expect(raw.json().result.userId).toBe(admin.userId);
    const lower = await t.app.inject({
      method: 'GET',
      url: '/API/v3/whoami',
      headers: { 'x-Api-tOKEN': admin.apiToken },
    });
    expect(lower.statusCode).toBe(200);
    expect(lower.json().result.userId).toBe(admin.userId);
  });

  it('answers 403 QMST_2.1 when the caller may not do it', async () => {
    const participant = await createUserWithToken(t, admin.apiToken, 'UT_PARTICIPANT');
    const res = await t.call(participant.token, 'GET', '/API/v3/users');
    expectError(res, 403, '403 - Forbidden', 'QMST_2.1');
  });
});

describe('routing and validation errors', () => {
  it('answers 404 with no code for an unknown route', async () => {
    const res = await t.call(admin.apiToken, 'GET', '/API/v3/no-such-thing');
    expectError(res, 404, '404 - Not Found');
    expect(res.body.meta.error.errorMessage).toBe('The requested resource does not exist.');
  });

  it('names the field of a schema violation', async () => {
    const before = await identityRows();
    for (const value of ['0', '-1', 'abc', '1001']) {
      const res = await t.call(admin.apiToken, 'GET', `/API/v3/users?pageSize=${value}`);
      expectError(res, 400, '400 - Bad Request', 'FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain('pageSize');
    }
    const missing = await t.call(admin.apiToken, 'POST', '/API/v3/users', { username: 'x' });
    expectError(missing, 400, '400 - Bad Request', 'FW_VAL_1');
    expect(missing.body.meta.error.errorMessage).toContain('firstName');
    expect(await identityRows()).toEqual(before);
  });

  it('lists the allowed values of an enumerated field', async () => {
    const before = await identityRows();
    const res = await t.call(admin.apiToken, 'POST', '/API/v3/users', {
      username: 'enum-check',
      firstName: 'A',
      lastName: 'B',
      email: 'a@example.com',
      userType: 'UT_GOD',
    });
    expectError(res, 400, '400 - Bad Request', 'FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toMatch(/userType.*UT_BRANDADMIN, UT_PARTICIPANT/);
    expect(await identityRows()).toEqual(before);
  });

  it('rejects a body that is not JSON with FW_VAL_2', async () => {
    const before = await identityRows();
    const res = await t.call(admin.apiToken, 'POST', '/API/v3/users', '{not json', {
      'content-type': 'application/json',
    });
    expectError(res, 400, '400 - Bad Request', 'FW_VAL_2');
    expect(await identityRows()).toEqual(before);
  });

  it('rejects an unsupported content type with 415', async () => {
    const before = await identityRows();
    const res = await t.call(admin.apiToken, 'POST', '/API/v3/users', 'name=x', {
      'content-type': 'text/csv',
    });
    expectError(res, 415, '415 - Unsupported Media Type', 'FW_VAL_3');
    expect(await identityRows()).toEqual(before);
  });

  it('does not coerce JSON body types: a wrong type is a 400 and null stays null', async () => {
    const before = await identityRows();
    const wrong = await t.call(admin.apiToken, 'POST', '/API/v3/groups', {
      name: 'Typed',
      autoMembership: 'yes',
    });
    expectError(wrong, 400, '400 - Bad Request', 'FW_VAL_1');
    expect(wrong.body.meta.error.errorMessage).toContain('autoMembership');
    const numberAsName = await t.call(admin.apiToken, 'POST', '/API/v3/divisions', { name: 12 });
    expectError(numberAsName, 400, '400 - Bad Request', 'FW_VAL_1');
    expect(await identityRows()).toEqual(before); // neither the group nor the division was made

    const division = (await t.call(admin.apiToken, 'POST', '/API/v3/divisions', { name: 'Nullable' })).body
      .result.id;
    const user = await createUserWithToken(t, admin.apiToken);
    await t.call(admin.apiToken, 'PUT', `/API/v3/users/${user.userId}`, { divisionId: division });
    const cleared = await t.call(admin.apiToken, 'PUT', `/API/v3/users/${user.userId}`, { divisionId: null });
    expect(cleared.status).toBe(200);
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/users/${user.userId}`);
    expect(read.body.result.divisionId).toBeNull();
  });

  it('ignores unknown body fields', async () => {
    const res = await t.call(admin.apiToken, 'POST', '/API/v3/divisions', {
      name: 'Lenient',
      surprise: true,
    });
    expect(res.status).toBe(200);
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/divisions/${res.body.result.id}`);
    expect(read.body.result.name).toBe('Lenient');
    expect(read.body.result).not.toHaveProperty('surprise');
  });
});

describe('paths (COMPAT.md "Paths")', () => {
  it('accepts a trailing slash and a doubled slash', async () => {
    const paths = ['/API/v3/whoami/', `/API/v3/users//${admin.userId}`, `/API/v3/users/${admin.userId}/`];
    const [whoami, doubled, trailing] = await Promise.all(
      paths.map((path) => t.call(admin.apiToken, 'GET', path)),
    );
    expect([whoami?.status, doubled?.status, trailing?.status]).toEqual([200, 200, 200]);
    expect(whoami?.body.result.userId).toBe(admin.userId);
    expect(doubled?.body.result.id).toBe(admin.userId);
    expect(trailing?.body.result.id).toBe(admin.userId);
  });
});

describe('crashes', () => {
  it('answers a 500 in the envelope, hides the message and logs it with the request id', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk));
        callback();
      },
    });
    const { database, drop } = await openTestDatabase();
    const app = await buildApp({
      config: testConfig(),
      database,
      clock: systemClock,
      logger: { level: 'info', stream },
    });
    app.get('/boom', async () => {
      throw new Error('secret internal detail');
    });
    try {
      const res = await app.inject({ method: 'GET', url: '/boom' });
      expect(res.statusCode).toBe(500);
      const body = res.json();
      expect(body.meta.httpStatus).toBe('500 - Internal Server Error');
      expect(body.meta.error.errorCode).toBe('FW_SRV_1');
      expect(res.body).not.toContain('secret internal detail');
      expect(res.body).not.toContain('at ');
      const logged = lines.map((line) => JSON.parse(line)).find((entry) => entry.level === 50);
      expect(logged.requestId).toBe(body.meta.requestId);
      expect(logged.err.message).toBe('secret internal detail');
    } finally {
      await app.close();
      await database.close();
      await drop();
    }
  });
});

describe('health', () => {
  it('reports the database reachable', async () => {
    const res = await t.call(undefined, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});
