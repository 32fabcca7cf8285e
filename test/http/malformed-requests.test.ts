import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { createDirectoryList } from '../contacts/contacts-helpers.js';
import { organizationRows } from '../helpers/rows.js';
import { type ApiResponse, buildTestApp, type TestApp } from '../helpers/test-app.js';

// Issue 19, defects 4 and 5: malformed requests answered 500, or outside the v3 envelope.
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let t: TestApp;
let org: BootstrapResult;
let listId: string;
let listUrl: string;
let subscriptionId: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  listId = await createDirectoryList(t, org.apiToken, org.directoryId);
  listUrl = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}`;
  const sub = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: 'https://hooks.example.com/fieldwork',
    topics: 'surveyengine.completedResponse.*',
  });
  expect(sub.status).toBe(200);
  subscriptionId = sub.body.result.id;
});
afterAll(() => t.close());

const stored = () =>
  organizationRows(t, org.brandId, ['mailing_lists', 'contacts', 'event_subscriptions', 'surveys', 'jobs']);

function expectError(res: ApiResponse, status: number, code: string, message?: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(String(res.headers['content-type'])).toContain('application/json');
  expect(res.body.meta.httpStatus).toMatch(new RegExp(`^${status} - `));
  expect(res.body.meta.error.errorCode).toBe(code);
  expect(res.body.meta.requestId).toMatch(UUID_V4);
  expect(res.headers['x-request-id']).toBe(res.body.meta.requestId);
  if (message) expect(res.body.meta.error.errorMessage).toMatch(message);
}

describe('offset on every paged list (issue 19)', () => {
  const lists = () => [
    '/API/v3/mailinglists',
    `/API/v3/directories/${org.directoryId}/mailinglists`,
    `/API/v3/mailinglists/${listId}/contacts`,
    '/API/v3/surveys',
    '/API/v3/users',
    `/API/v3/eventsubscriptions/${subscriptionId}/deliveries`,
  ];

  it('refuses an offset out of range, infinite or not a number with 400 FW_VAL_1, never 500', async () => {
    for (const url of lists()) {
      for (const offset of ['99999999999999999999', '1e308', 'Infinity', '-Infinity', '-1', 'abc', '1.5']) {
        const res = await t.call(org.apiToken, 'GET', `${url}?offset=${offset}`);
        expectError(res, 400, 'FW_VAL_1', /^Invalid request: offset must be /);
      }
    }
  });

  it('takes the largest exact offset on both engines: an empty page', async () => {
    for (const url of lists()) {
      const res = await t.call(org.apiToken, 'GET', `${url}?offset=${Number.MAX_SAFE_INTEGER}`);
      expect(res.status, `${url} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.result).toEqual({ elements: [], nextPage: null });
    }
  });
});

describe('bodies that are missing or of the wrong type (issue 19)', () => {
  it('answers 400 when a call that needs a body gets none, with no content type', async () => {
    const before = await stored();
    for (const url of ['/API/v3/surveys', `${listUrl}/contactimports`, '/API/v3/responseimports']) {
      const res = await t.call(org.apiToken, 'POST', url);
      expectError(res, 400, 'FW_VAL_1', /^Invalid request: body is required \(.*application\/json/);
    }
    for (const [method, url] of [
      ['POST', '/API/v3/mailinglists'],
      ['PUT', listUrl],
    ] as const) {
      const res = await t.call(org.apiToken, method, url);
      expectError(res, 400, 'FW_VAL_1', /^Invalid request: body must be object\.$/);
    }
    expect(await stored()).toEqual(before);
  });

  it('answers 400 FW_VAL_2 for an empty JSON body', async () => {
    const before = await stored();
    for (const url of ['/API/v3/surveys', `${listUrl}/contactimports`, '/API/v3/mailinglists']) {
      const res = await t.call(org.apiToken, 'POST', url, '', { 'content-type': 'application/json' });
      expectError(res, 400, 'FW_VAL_2');
    }
    expect(await stored()).toEqual(before);
  });

  it('answers 415 FW_VAL_3 for text/plain to JSON and upload calls alike', async () => {
    const before = await stored();
    for (const [method, url] of [
      ['POST', '/API/v3/surveys'],
      ['POST', `${listUrl}/contactimports`],
      ['POST', '/API/v3/responseimports'],
      ['POST', '/API/v3/mailinglists'],
      ['PUT', listUrl],
    ] as const) {
      const res = await t.call(org.apiToken, method, url, '{"name":"x"}', { 'content-type': 'text/plain' });
      expectError(res, 415, 'FW_VAL_3');
    }
    expect(await stored()).toEqual(before);
  });
});

describe('malformed multipart bodies (issue 19)', () => {
  const uploads = () => ['/API/v3/surveys', `${listUrl}/contactimports`, '/API/v3/responseimports'];

  it('answers 400 for a multipart content type without a boundary', async () => {
    const before = await stored();
    for (const url of uploads()) {
      const res = await t.call(org.apiToken, 'POST', url, 'name=x', {
        'content-type': 'multipart/form-data',
      });
      expectError(res, 400, 'FW_VAL_1', /multipart body is malformed \(Multipart: Boundary not found\)/);
    }
    expect(await stored()).toEqual(before);
  });

  /** A multipart body that stops in the middle of its first part's value. */
  const cut = (name: string, filename = '') =>
    `--XX\r\nContent-Disposition: form-data; name="${name}"${filename}\r\n\r\nhalf a valu`;

  async function expectCutShortRefused(url: string, body: string) {
    const before = await stored();
    const res = await t.call(org.apiToken, 'POST', url, body, {
      'content-type': 'multipart/form-data; boundary=XX',
    });
    expectError(res, 400, 'FW_VAL_1', /multipart body is malformed \(.*unexpected end of multipart data\)/i);
    expect(await stored()).toEqual(before);
  }

  it('answers 400 for a multipart body cut short (fields read before the handler or in it)', async () => {
    await expectCutShortRefused('/API/v3/surveys', cut('name'));
    await expectCutShortRefused('/API/v3/responseimports', cut('surveyId'));
  });

  it('answers 400 for a contact import file cut short (the file streamed to disk)', async () => {
    await expectCutShortRefused(`${listUrl}/contactimports`, cut('file', '; filename="c.csv"'));
  });
});

describe('paths the router refuses, in the envelope (issue 19)', () => {
  it('answers 400 FW_VAL_1 for a bad percent-encoding', async () => {
    const before = await stored();
    for (const [method, url] of [
      ['GET', '/API/v3/surveys/%ff'],
      ['PUT', `/API/v3/directories/${org.directoryId}/mailinglists/%E0%A4%A`],
      ['DELETE', '/API/v3/mailinglists/ML_%c3'],
    ] as const) {
      const res = await t.call(org.apiToken, method, url, method === 'PUT' ? { name: 'x' } : undefined);
      expectError(res, 400, 'FW_VAL_1', /^Invalid request: the path is not valid percent-encoded UTF-8\.$/);
    }
    expect(await stored()).toEqual(before);
  });

  it('answers 400 FW_VAL_1 for a path parameter over 100 characters', async () => {
    const before = await stored();
    const long = 'S'.repeat(101);
    for (const [method, url] of [
      ['GET', `/API/v3/surveys/${long}`],
      ['PUT', `/API/v3/directories/${org.directoryId}/mailinglists/${long}`],
      ['DELETE', `/API/v3/eventsubscriptions/${long}`],
    ] as const) {
      const res = await t.call(org.apiToken, method, url, method === 'PUT' ? { name: 'x' } : undefined);
      expectError(
        res,
        400,
        'FW_VAL_1',
        /^Invalid request: a path parameter is longer than 100 characters\.$/,
      );
    }
    expect(await stored()).toEqual(before);
  });
});
