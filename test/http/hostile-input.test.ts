import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { createDirectoryList } from '../contacts/contacts-helpers.js';
import { engineFixture, importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { organizationRows } from '../helpers/rows.js';
import { type ApiResponse, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { SMALL_QSF, uploadQsf } from '../surveys/survey-helpers.js';

// Issue 19, defect 3: PostgreSQL refuses U+0000 in text (a 500), SQLite stored it, and a lone surrogate
// was stored as invalid UTF-8. Every route refuses both at the boundary, naming the field.
let t: TestApp;
let org: BootstrapResult;
let listId: string;
let listUrl: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  listId = await createDirectoryList(t, org.apiToken, org.directoryId, 'Unchanged');
  listUrl = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}`;
});
afterAll(() => t.close());

/** Everything a refused call could have written. */
const stored = () =>
  organizationRows(t, org.brandId, [
    'mailing_lists',
    'contacts',
    'mailing_list_members',
    'event_subscriptions',
    'surveys',
    'jobs',
    'groups',
  ]);

function expectRefused(res: ApiResponse, message: string, code = 'FW_VAL_1', status = 400) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.meta.httpStatus).toMatch(new RegExp(`^${status} - `));
  expect(res.body.meta.error.errorCode).toBe(code);
  expect(res.body.meta.error.errorMessage).toBe(message);
  expect(res.headers['x-request-id']).toBe(res.body.meta.requestId);
}

const HOSTILE = [
  ['a NUL character', 'a\u0000b'],
  ['an unpaired surrogate', 'a\ud800b'],
  ['an unpaired surrogate', '\udc00'],
] as const;

describe('NUL characters and unpaired surrogates in JSON bodies (issue 19)', () => {
  for (const [problem, text] of HOSTILE) {
    it(`refuses ${JSON.stringify(text)} in creates, updates and imports, storing nothing`, async () => {
      const before = await stored();
      const calls: [string, string, unknown, string][] = [
        ['POST', '/API/v3/mailinglists', { name: text }, 'name'],
        ['PUT', listUrl, { name: text }, 'name'],
        ['POST', `${listUrl}/contacts`, { firstName: text, email: 'a@example.com' }, 'firstName'],
        [
          'POST',
          '/API/v3/eventsubscriptions',
          { publicationUrl: 'https://h.example/x', topics: text },
          'topics',
        ],
        [
          'POST',
          `${listUrl}/contactimports`,
          [{ firstName: 'A', embeddedData: { k: text } }],
          '0.embeddedData.k',
        ],
        [
          'POST',
          '/API/v3/surveys',
          { name: 'JSON survey', file: { SurveyEntry: { SurveyName: text } } },
          'file.SurveyEntry.SurveyName',
        ],
      ];
      for (const [method, url, body, field] of calls) {
        const res = await t.call(org.apiToken, method, url, body);
        expectRefused(res, `Invalid request: ${field} contains ${problem}.`);
      }
      expect(await stored()).toEqual(before);
    });
  }

  it('refuses a NUL in a field name of a free-form object', async () => {
    const before = await stored();
    const res = await t.call(org.apiToken, 'POST', `${listUrl}/contactimports`, [
      { firstName: 'A', embeddedData: { 'k\u0000': 'v' } },
    ]);
    expectRefused(res, 'Invalid request: a field name in 0.embeddedData contains a NUL character.');
    expect(await stored()).toEqual(before);
  });

  it('keeps a well-formed surrogate pair (an emoji) exactly', async () => {
    const res = await t.call(org.apiToken, 'PUT', listUrl, { name: 'Pets 🐈‍⬛ 😀' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const read = await t.call(org.apiToken, 'GET', listUrl);
    expect(read.body.result.name).toBe('Pets 🐈‍⬛ 😀');
    expect((await t.call(org.apiToken, 'PUT', listUrl, { name: 'Unchanged' })).status).toBe(200);
  });
});

describe('NUL characters in paths, query strings and form fields (issue 19)', () => {
  it('refuses a NUL in a path parameter or a query parameter of any call', async () => {
    const before = await stored();
    const calls: [string, string, string][] = [
      ['GET', '/API/v3/surveys/SV_%00', 'surveyId'],
      ['DELETE', '/API/v3/mailinglists/ML_a%00b', 'mailingListId'],
      ['PUT', `/API/v3/directories/${org.directoryId}/mailinglists/x%00`, 'mailingListId'],
      ['GET', '/API/v3/groups?userId=UR_%00', 'userId'],
      ['GET', `/API/v3/mailinglists/${listId}/contacts?pageSize=5&x=a%00b`, 'x'],
    ];
    for (const [method, url, field] of calls) {
      const res = await t.call(org.apiToken, method, url, method === 'PUT' ? { name: 'x' } : undefined);
      expectRefused(res, `Invalid request: ${field} contains a NUL character.`);
    }
    expect(await stored()).toEqual(before);
  });

  it('refuses a NUL in a multipart text field (the survey upload), storing no survey', async () => {
    const before = await stored();
    const res = await uploadQsf(t, org.apiToken, SMALL_QSF, { name: 'Pets\u0000' });
    expectRefused(res, 'Invalid request: name contains a NUL character.');
    expect(await stored()).toEqual(before);
  });

  it('answers the survey pages 400 (an HTML page) for a NUL in the form or the link, keeping the session', async () => {
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const sessions = () =>
      t.database.db.selectFrom('engine_sessions').selectAll().where('survey_id', '=', surveyId).execute();
    const client = new FormClient(t);
    const first = await client.get(`/jfe/form/${surveyId}`);
    expect(first.status).toBe(200);
    const before = await sessions();
    expect(before).toHaveLength(1);

    const posted = await client.post(`/jfe/form/${surveyId}`, first.body, { QID1: '2', note: 'a\u0000b' });
    const linked = await client.get(`/jfe/form/${surveyId}?source=a%00b`);
    for (const page of [posted, linked]) {
      expect(page.status).toBe(400);
      expect(String(page.headers['content-type'])).toContain('text/html');
      expect(page.body).toContain('This page could not be used');
    }
    expect(await sessions()).toEqual(before);
  });
});

describe('values nested too deep, and numbers no engine holds (issue 19)', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('refuses a JSON body nested thousands deep with 400, not a stack overflow', async () => {
    const before = await stored();
    const calls: [string, string, string][] = [
      [
        `${listUrl}/contactimports`,
        `[{"firstName":"A","embeddedData":{"k":${deep(5000)}}}]`,
        '0.embeddedData.k',
      ],
      ['/API/v3/surveys', `{"name":"Deep","file":${deep(5000)}}`, 'file'],
      ['/API/v3/surveys', `{"name":"Deep","file":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`, 'file.a.a…'],
    ];
    for (const [url, payload, field] of calls) {
      const res = await t.call(org.apiToken, 'POST', url, payload, { 'content-type': 'application/json' });
      expectRefused(res, `Invalid request: ${field} nests more than 64 levels deep.`);
    }
    expect(await stored()).toEqual(before);
  });

  it('takes a body nested as deep as a real one', async () => {
    const res = await t.call(org.apiToken, 'POST', `${listUrl}/contacts`, {
      firstName: 'Nested',
      embeddedData: { k: 'v' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('refuses a JSON number beyond double range (1e400 parses to Infinity)', async () => {
    const before = await stored();
    const payload = '[{"firstName":"A","embeddedData":{"k":1e400}}]';
    const res = await t.call(org.apiToken, 'POST', `${listUrl}/contactimports`, payload, {
      'content-type': 'application/json',
    });
    expectRefused(res, 'Invalid request: 0.embeddedData.k is a number too large to represent.');
    expect(await stored()).toEqual(before);
  });

  it('refuses an integer field of a JSON body beyond the exact integers', async () => {
    const before = await stored();
    for (const limit of ['1e308', '99999999999999999999', '1e400']) {
      const res = await t.call(
        org.apiToken,
        'POST',
        '/API/v3/responseexports',
        `{"surveyId":"SV_x","format":"csv","limit":${limit}}`,
        { 'content-type': 'application/json' },
      );
      expectRefused(res, 'Invalid request: limit must be <= 9007199254740991.');
    }
    expect(await stored()).toEqual(before);
  });
});
