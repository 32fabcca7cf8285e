import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { listV2Commands } from '../../src/modules/legacy/v2-commands.js';
import { renderMigrationDoc } from '../../src/modules/legacy/v2-migration-doc.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { describedCommands, obsoletedCommands, specEndpoints } from './spec-v2.js';

const SCRIPT = '/WRAPI/ControlPanel/api.php';
const SHUT_DOWN = 'Version 2 of the API was shut down on 2020-03-31.';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A v2 call as a client sends it: no token, the command in the query string. */
async function v2(command: string, method = 'GET') {
  return t.call(
    undefined,
    method,
    `${SCRIPT}?Request=${encodeURIComponent(command)}&Format=JSON&Version=2.5`,
  );
}

function expectRetired(res: Awaited<ReturnType<typeof v2>>): string {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.meta.httpStatus).toBe('404 - Not Found');
  expect(res.body.meta.error.errorCode).toBe('FW_V2_1');
  expect(res.body.meta.requestId).toBe(res.headers['x-request-id']);
  expect(res.body).not.toHaveProperty('result');
  return res.body.meta.error.errorMessage as string;
}

describe('every version 2 call the spec names or describes', () => {
  it.each(obsoletedCommands())('spec 9.4: $name answers 404 and says what became of it', async (entry) => {
    expect(entry.name).toMatch(/^[a-z][A-Za-z]+$/);
    const message = expectRetired(await v2(entry.name));
    expect(message.startsWith(SHUT_DOWN)).toBe(true);
    if (entry.replacedLaterBy) {
      expect(message).toContain(`${entry.name} is replaced by`);
      expect(message).toContain(entry.replacedLaterBy);
    } else {
      expect(message).toContain(`${entry.name} was obsoleted: it has no version 3 equivalent.`);
    }
  });

  it('reads all ten commands of spec 9.4', () => {
    expect(obsoletedCommands()).toHaveLength(10);
  });

  const described = describedCommands();
  it.each(described)('spec $where: $term answers 404 naming what replaces it', async ({ term, expected }) => {
    const commands = listV2Commands().filter((command) => command.specTerms?.includes(term));
    expect(commands.length, `no command of v2-commands.ts has the spec term "${term}"`).toBeGreaterThan(0);
    expect(expected.length).toBeGreaterThan(0);
    for (const command of commands) {
      const message = expectRetired(await v2(command.name));
      expect(message.startsWith(SHUT_DOWN)).toBe(true);
      expect(message).toContain(command.name);
      for (const text of expected) expect(message, command.name).toContain(text);
    }
  });

  it('reads the merged calls of 9.5, the get-user list of 4.4 and the sends of 4.6', () => {
    const where = (w: string) => described.filter((d) => d.where === w).map((d) => d.term);
    expect(where('9.5')).toEqual([
      'survey activation',
      'deactivation',
      'option',
      'owner changes',
      'response counts by survey',
      'survey name',
      'survey retrieval',
      'distribution sends',
      'legacy response data call',
      'list opt-outs',
    ]);
    expect(where('4.4')).toEqual([
      'user info',
      'response counts by survey owner',
      'password expiration dates',
    ]);
    expect(where('4.6')).toEqual(['email to panel', 'reminder', 'send survey', 'thank you']);
  });

  it('gives every spec term of the table to some description in the spec', () => {
    const terms = new Set(described.map((d) => d.term));
    for (const command of listV2Commands())
      for (const term of command.specTerms ?? [])
        expect(terms.has(term), `${command.name}: "${term}"`).toBe(true);
  });
});

describe('the table', () => {
  it('answers every command with its own message, in the case the table spells it or in lower case', async () => {
    for (const command of listV2Commands()) {
      for (const sent of [command.name, command.name.toLowerCase()]) {
        const message = expectRetired(await v2(sent));
        const expected = command.replacement
          ? `${command.name} is replaced by ${command.replacement}.`
          : `${command.name} was obsoleted: it has no version 3 equivalent.`;
        expect(message, sent).toContain(expected);
        if (command.note) expect(message).toContain(command.note);
      }
    }
  });

  it('names only calls of the spec endpoint list, or calls this server serves', () => {
    const spec = specEndpoints();
    const served = new Set(
      t.app.registeredRoutes.map(
        ({ method, url }) => `${method} ${url.replace(/^\/API/, '').replace(/:(\w+)/g, '<$1>')}`,
      ),
    );
    for (const command of listV2Commands()) {
      if (command.replacement) expect(spec.has(command.replacement), command.replacement).toBe(true);
      for (const [call] of command.note.matchAll(/\b(?:GET|POST|PUT|DELETE) \/v3\/[^\s`]*[^\s`.,;:)]/g))
        expect(spec.has(call) || served.has(call), `${command.name}: ${call}`).toBe(true);
    }
  });

  it('is what docs/migrating-from-v2.md says (npm run docs:v2 writes it)', () => {
    const committed = readFileSync(new URL('../../docs/migrating-from-v2.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderMigrationDoc());
  });
});

describe('the retired endpoints', () => {
  it.each(['Request', 'request', 'REQUEST', 'reQuest'])(
    'read the command from a %s parameter',
    async (key) => {
      const res = await t.call(undefined, 'GET', `${SCRIPT}?${key}=getSurveyName&SurveyID=SV_abc`);
      expect(expectRetired(res)).toContain('getSurveyName is replaced by GET /v3/surveys/<surveyId>.');
    },
  );

  it('read the command of a POST from the query string, or from a posted form', async () => {
    expect(expectRetired(await v2('deleteSurvey', 'POST'))).toContain('deleteSurvey is replaced by DELETE');
    const form = await t.app.inject({
      method: 'POST',
      url: SCRIPT,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'User=jane&Token=abc&Format=JSON&request=getUserInfo',
    });
    expect(form.statusCode).toBe(404);
    expect(form.json().meta.error.errorMessage).toContain(
      'getUserInfo is replaced by GET /v3/users/<userId>.',
    );
  });

  it.each([
    ['application/json', '{"not": "json'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="FileContents"\r\n\r\n\u0000\u0001\r\n--',
    ],
    ['text/csv', 'a,b\n1,2\n'],
    ['application/octet-stream', Buffer.alloc(256 * 1024, 7)],
  ])('answer the same 404 whatever is posted (%s)', async (type, payload) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${SCRIPT}?Request=importSurvey`,
      headers: { 'content-type': type },
      payload,
    });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().meta.error.errorMessage).toContain('importSurvey is replaced by POST /v3/surveys.');
  });

  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'answer %s under /API/v2/ with the shutdown and the way to version 3',
    async (method) => {
      for (const path of ['/API/v2', '/API/v2/', '/API/v2/surveys/SV_abc/responses']) {
        const message = expectRetired(await t.call(undefined, method, path));
        expect(message).toBe(`${SHUT_DOWN} Use the version 3 API under /API/v3 (reference at /API/docs).`);
      }
    },
  );

  it('answer HEAD with the status alone', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: `${SCRIPT}?Request=getSurveys` });
    expect(res.statusCode).toBe(404);
  });

  it('answer the same with a valid, an unknown or no token', async () => {
    const org = await t.newOrganization();
    const url = `${SCRIPT}?Request=getSurveys`;
    const messages = await Promise.all(
      [org.apiToken, 'x'.repeat(40), undefined].map(async (token) =>
        expectRetired(await t.call(token, 'GET', url)),
      ),
    );
    expect(new Set(messages).size).toBe(1);
  });

  it('point an unknown command at the v3 API, repeating only a safe name', async () => {
    expect(expectRetired(await v2('getSomethingElse'))).toBe(
      `${SHUT_DOWN} "getSomethingElse" is not a version 2 command Fieldwork knows. Use the version 3 API under /API/v3 (reference at /API/docs).`,
    );
    for (const hostile of [
      '<img src=x onerror=alert(1)>',
      `get${'A'.repeat(200)}`,
      'get"Survey',
      "'; drop table users; --",
    ]) {
      const message = expectRetired(await v2(hostile));
      expect(message).toBe(`${SHUT_DOWN} Use the version 3 API under /API/v3 (reference at /API/docs).`);
    }
    expect(expectRetired(await t.call(undefined, 'GET', SCRIPT))).toBe(
      `${SHUT_DOWN} Use the version 3 API under /API/v3 (reference at /API/docs).`,
    );
  });

  it('are not in the OpenAPI document', async () => {
    const doc = (await t.call(undefined, 'GET', '/API/v3/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    expect(paths.some((path) => path.startsWith('/WRAPI') || path.startsWith('/API/v2'))).toBe(false);
    expect(paths.length).toBeGreaterThan(50);
  });
});

it('says the shutdown is still ahead on a clock before 2020-04-01, with the same 404', async () => {
  const early = await buildTestApp({ clock: manualClock('2020-03-31T12:00:00Z') });
  try {
    const res = await early.call(undefined, 'GET', `${SCRIPT}?Request=activateSurvey`);
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorMessage).toMatch(
      /^Version 2 of the API is retired and stops existing after 2020-03-31; .* activateSurvey is replaced by PUT \/v3\/surveys\/<surveyId>\./,
    );
  } finally {
    await early.close();
  }
});
