// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { type ApiResponse, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { tickingClock } from './ticking-clock.js';

let t: TestApp;
let admin: { apiToken: string; userId: string };
beforeAll(async () => {
  t = await buildTestApp({ clock: tickingClock() });
  admin = await t.newOrganization();
});
afterAll(() => t.close());

const MS_ID = /^MS_[A-Za-z0-9]{15}$/;

const invite = (overrides: Record<string, unknown> = {}) => ({
  description: 'Spring invite',
  category: 'invite',
  messages: { EN: '<p>Dear ${m://FirstName}, ${l://SurveyLink?d=Start}</p>' },
  ...overrides,
});

async function create(token: string, url: string, body: unknown): Promise<string> {
  const res = await t.call(token, 'POST', url, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result.id).toMatch(MS_ID);
  return res.body.result.id;
}

function expectInvalid(res: ApiResponse, mentions: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.meta.httpStatus).toBe('400 - Bad Request');
  expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
  expect(res.body.meta.error.errorMessage).toContain(mentions);
  expect(res.body.result).toBeUndefined();
}

describe("the spec's spelling: /v3/messages in the caller's own library", () => {
  it('creates, reads, changes and deletes a message', async () => {
    const id = await create(admin.apiToken, '/API/v3/messages', invite());
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toEqual({
      id,
      description: 'Spring invite',
      category: 'invite',
      messages: { EN: '<p>Dear ${m://FirstName}, ${l://SurveyLink?d=Start}</p>' },
      warnings: [],
    });

    const changed = await t.call(admin.apiToken, 'PUT', `/API/v3/messages/${id}`, {
      description: 'Spring reminder',
      category: 'reminder',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.meta.httpStatus).toBe('200 - OK');
    const after = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(after.body.result).toMatchObject({ description: 'Spring reminder', category: 'reminder' });
    expect(after.body.result.messages).toEqual(read.body.result.messages);

    const deleted = await t.call(admin.apiToken, 'DELETE', `/API/v3/messages/${id}`);
    expect(deleted.status).toBe(200);
    const gone = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_MSG_1');
    expect((await t.call(admin.apiToken, 'DELETE', `/API/v3/messages/${id}`)).status).toBe(404);
    expect((await t.call(admin.apiToken, 'PUT', `/API/v3/messages/${id}`, { description: 'x' })).status).toBe(
      404,
    );
  });

  it('replaces every language when messages is given', async () => {
    const id = await create(admin.apiToken, '/API/v3/messages', invite({ messages: { EN: 'a', DE: 'b' } }));
    await t.call(admin.apiToken, 'PUT', `/API/v3/messages/${id}`, { messages: { FR: 'c' } });
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(read.body.result.messages).toEqual({ FR: 'c' });
    expect(read.body.result.description).toBe('Spring invite');
  });

  it('names the library in the query or the body; the same one in both is fine', async () => {
    const lib = admin.userId;
    const inBody = await create(admin.apiToken, '/API/v3/messages', invite({ libraryId: lib }));
    const inQuery = await create(admin.apiToken, `/API/v3/messages?libraryId=${lib}`, invite());
    const both = await create(
      admin.apiToken,
      `/API/v3/messages?libraryId=${lib}`,
      invite({ libraryId: lib }),
    );
    for (const id of [inBody, inQuery, both]) {
      expect((await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}?libraryId=${lib}`)).status).toBe(
        200,
      );
    }
    const put = await t.call(admin.apiToken, 'PUT', `/API/v3/messages/${inBody}`, {
      libraryId: lib,
      description: 'y',
    });
    expect(put.status).toBe(200);
    const del = await t.call(admin.apiToken, 'DELETE', `/API/v3/messages/${inBody}`, { libraryId: lib });
    expect(del.status).toBe(200);
  });

  it('keeps the HTML exactly as given, unicode and all', async () => {
    const html = '<p style="color:red">Grüße, ${m://FirstName} 🙂</p><script>alert("kept")</script>\u2028';
    const id = await create(admin.apiToken, '/API/v3/messages', invite({ messages: { 'pt-BR': html } }));
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(read.body.result.messages['pt-BR']).toBe(html);
  });

  it('accepts the platform and BCP 47 language codes', async () => {
    const messages = {
      EN: '1',
      en_GB: '2',
      'pt-BR': '3',
      'ZH-S': '4',
      'zh-Hant': '5',
      'PA-IN': '6',
      fil: '7',
    };
    const id = await create(admin.apiToken, '/API/v3/messages', invite({ messages }));
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(read.body.result.messages).toEqual(messages);
  });

  it('lists the piped fields it does not fill as warnings', async () => {
    const messages = {
      EN: '${m://FirstName} ${q://QID1/ChoiceGroup/SelectedChoices} ${e://Field/plan} ${x://y}',
      ES: '${x://y} ${l://OptOutLink?d=Baja} ${m://FirstName',
    };
    const id = await create(admin.apiToken, '/API/v3/messages', invite({ messages }));
    const read = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(read.body.result.warnings).toEqual(['${q://QID1/ChoiceGroup/SelectedChoices}', '${x://y}']);
  });
});

describe('the current spelling: /v3/libraries/{libraryId}/messages', () => {
  it('creates, reads, changes and deletes a message; both spellings see the same one', async () => {
    const base = `/API/v3/libraries/${admin.userId}/messages`;
    const id = await create(admin.apiToken, base, invite({ category: 'thankYou', description: 'Thanks' }));
    const read = await t.call(admin.apiToken, 'GET', `${base}/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toMatchObject({ id, description: 'Thanks', category: 'thankYou' });
    const viaSpec = await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`);
    expect(viaSpec.body.result).toEqual(read.body.result);

    expect(
      (await t.call(admin.apiToken, 'PUT', `${base}/${id}`, { messages: { en: 'Thank you!' } })).status,
    ).toBe(200);
    expect((await t.call(admin.apiToken, 'GET', `${base}/${id}`)).body.result.messages).toEqual({
      en: 'Thank you!',
    });

    expect((await t.call(admin.apiToken, 'DELETE', `${base}/${id}`)).status).toBe(200);
    const gone = await t.call(admin.apiToken, 'GET', `${base}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_MSG_1');
  });
});

describe('listing', () => {
  it('pages in creation order through nextPage, in both spellings', async () => {
    const owner = await createUserWithToken(t, admin.apiToken);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await create(owner.token, '/API/v3/messages', invite({ description: `m${i}` })));
    }
    for (const first of [
      '/API/v3/messages?pageSize=2',
      `/API/v3/libraries/${owner.userId}/messages?pageSize=2`,
    ]) {
      const seen: string[] = [];
      let url: string | null = first;
      let pages = 0;
      while (url) {
        const res: ApiResponse = await t.call(owner.token, 'GET', url);
        expect(res.status).toBe(200);
        expect(res.body.result.elements.length).toBeLessThanOrEqual(2);
        for (const e of res.body.result.elements)
          expect(Object.keys(e).sort()).toEqual(['category', 'description', 'id']);
        seen.push(...res.body.result.elements.map((e: { id: string }) => e.id));
        const next: string | null = res.body.result.nextPage;
        url = next && `${new URL(next).pathname}${new URL(next).search}`;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    }
    const offset = await t.call(owner.token, 'GET', '/API/v3/messages?offset=4');
    expect(offset.body.result.elements.map((e: { id: string }) => e.id)).toEqual([ids[4]]);
    expect(offset.body.result.nextPage).toBeNull();
  });

  it('filters by category', async () => {
    const owner = await createUserWithToken(t, admin.apiToken);
    const base = `/API/v3/libraries/${owner.userId}/messages`;
    const inviteId = await create(owner.token, base, invite());
    const reminders = [
      await create(owner.token, base, invite({ category: 'reminder' })),
      await create(owner.token, base, invite({ category: 'reminder' })),
    ];
    const subject = await create(
      owner.token,
      base,
      invite({ category: 'emailSubject', messages: { EN: 'Hi' } }),
    );
    const listed = async (url: string) =>
      (await t.call(owner.token, 'GET', url)).body.result.elements.map((e: { id: string }) => e.id);
    expect(await listed(`${base}?category=reminder`)).toEqual(reminders);
    expect(await listed('/API/v3/messages?category=reminder')).toEqual(reminders);
    expect(await listed('/API/v3/messages?category=emailSubject')).toEqual([subject]);
    expect(await listed(`${base}?category=invite`)).toEqual([inviteId]);
    expect(await listed(`${base}?category=smsInvite`)).toEqual([]);
    expect(await listed(base)).toEqual([inviteId, ...reminders, subject]);
  });

  it('refuses an unknown category, and a bad page size, in the envelope', async () => {
    const bad = await t.call(admin.apiToken, 'GET', '/API/v3/messages?category=Invite');
    expectInvalid(bad, 'category');
    expect(bad.body.meta.error.errorMessage).toContain('thankYou');
    expectInvalid(
      await t.call(admin.apiToken, 'GET', `/API/v3/libraries/${admin.userId}/messages?pageSize=0`),
      'pageSize',
    );
  });
});

describe('bad bodies', () => {
  const url = '/API/v3/messages';
  const post = (body: unknown) => t.call(admin.apiToken, 'POST', url, body);

  it('refuses a missing or wrong field', async () => {
    const { description: _d, ...noDescription } = invite();
    expectInvalid(await post(noDescription), 'description');
    const { category: _c, ...noCategory } = invite();
    expectInvalid(await post(noCategory), 'category');
    const { messages: _m, ...noMessages } = invite();
    expectInvalid(await post(noMessages), 'messages');
    expectInvalid(await post(invite({ category: 'newsletter' })), 'category');
    expectInvalid(await post(invite({ description: '' })), 'description');
    expectInvalid(await post(invite({ messages: {} })), 'messages');
    expectInvalid(await post(invite({ messages: 'hello' })), 'messages');
    expectInvalid(await post(invite({ messages: { EN: 42 } })), 'messages.EN');
    expectInvalid(
      await t.call(admin.apiToken, 'POST', `/API/v3/libraries/${admin.userId}/messages`, {
        description: 'x',
      }),
      'category',
    );
  });

  it('refuses keys that are not language codes, and one language twice', async () => {
    expectInvalid(
      await post(invite({ messages: { English: 'x' } })),
      'messages.English is not a language code',
    );
    expectInvalid(await post(invite({ messages: { 'e n': 'x' } })), 'messages.e n');
    expectInvalid(await post(invite({ messages: { '': 'x' } })), 'is not a language code');
    expectInvalid(await post(invite({ messages: { EN: 'x', en: 'y' } })), 'EN and en');
    expectInvalid(await post(invite({ messages: { pt_BR: 'x', 'PT-br': 'y' } })), 'pt_BR and PT-br');
  });

  it('refuses more than 1 MB of HTML for a language, counted in bytes', async () => {
    const justRight = 'a'.repeat(1024 * 1024);
    expect((await post(invite({ messages: { EN: justRight } }))).status).toBe(200);
    const tooBig = await post(invite({ messages: { EN: `${'é'.repeat(512 * 1024)}x` } }));
    expectInvalid(tooBig, 'messages.EN is 1048577 bytes');
    expect(tooBig.body.meta.error.errorMessage).toContain('1 MB');
  });

  it('refuses a change with nothing to change, or a bad one, and leaves the message as it was', async () => {
    const id = await create(admin.apiToken, url, invite());
    expectInvalid(await t.call(admin.apiToken, 'PUT', `${url}/${id}`, {}), 'nothing to change');
    expectInvalid(await t.call(admin.apiToken, 'PUT', `${url}/${id}`, { category: 'nope' }), 'category');
    expectInvalid(
      await t.call(admin.apiToken, 'PUT', `${url}/${id}`, { messages: { EN: 'x', en: 'y' } }),
      'same language',
    );
    const read = await t.call(admin.apiToken, 'GET', `${url}/${id}`);
    expect(read.body.result).toMatchObject(invite());
  });

  it('refuses two different libraries in the query and the body', async () => {
    const res = await t.call(
      admin.apiToken,
      'POST',
      `${url}?libraryId=${admin.userId}`,
      invite({ libraryId: 'GR_000000000000000' }),
    );
    expectInvalid(res, 'libraryId differs');
  });

  it('refuses a body that is not JSON', async () => {
    const res = await t.call(admin.apiToken, 'POST', url, '{"description":', {
      'content-type': 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_2');
  });
});

it('documents both spellings in the OpenAPI document', async () => {
  const res = await t.call(undefined, 'GET', '/API/v3/openapi.json');
  expect(res.status).toBe(200);
  const paths = res.body.paths as Record<string, Record<string, unknown>>;
  const expected: [string, string][] = [
    ['get', '/API/v3/messages'],
    ['post', '/API/v3/messages'],
    ['get', '/API/v3/messages/{messageId}'],
    ['put', '/API/v3/messages/{messageId}'],
    ['delete', '/API/v3/messages/{messageId}'],
    ['get', '/API/v3/libraries/{libraryId}/messages'],
    ['post', '/API/v3/libraries/{libraryId}/messages'],
    ['get', '/API/v3/libraries/{libraryId}/messages/{messageId}'],
    ['put', '/API/v3/libraries/{libraryId}/messages/{messageId}'],
    ['delete', '/API/v3/libraries/{libraryId}/messages/{messageId}'],
  ];
  expect(expected.filter(([method, path]) => !paths[path]?.[method])).toEqual([]);
});
