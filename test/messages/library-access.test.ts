import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { type ApiResponse, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { tickingClock } from './ticking-clock.js';

let t: TestApp;
let admin: { apiToken: string; userId: string };
let member: { token: string; userId: string };
let outsider: { token: string; userId: string };
let groupId: string;
beforeAll(async () => {
  t = await buildTestApp({ clock: tickingClock() });
  admin = await t.newOrganization();
  member = await createUserWithToken(t, admin.apiToken);
  outsider = await createUserWithToken(t, admin.apiToken);
  const group = await t.call(admin.apiToken, 'POST', '/API/v3/groups', { name: 'Research team' });
  groupId = group.body.result.id;
  await t.call(admin.apiToken, 'POST', `/API/v3/groups/${groupId}/members`, { userId: member.userId });
});
afterAll(() => t.close());

const body = (description: string) => ({
  description,
  category: 'general',
  messages: { EN: `<p>${description}</p>` },
});

async function create(token: string, url: string, description: string): Promise<string> {
  const res = await t.call(token, 'POST', url, body(description));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id;
}

function expectNotFound(res: ApiResponse, code: 'FW_LIB_1' | 'FW_MSG_1'): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expect(res.body.meta.httpStatus).toBe('404 - Not Found');
  expect(res.body.meta.error.errorCode).toBe(code);
}

const ids = (res: ApiResponse) => res.body.result.elements.map((e: { id: string }) => e.id);

describe('group libraries', () => {
  it('are open to a member through both spellings', async () => {
    const base = `/API/v3/libraries/${groupId}/messages`;
    const viaLibrary = await create(member.token, base, 'team invite');
    const viaSpec = await create(member.token, `/API/v3/messages?libraryId=${groupId}`, 'team reminder');
    expect(ids(await t.call(member.token, 'GET', base))).toEqual([viaLibrary, viaSpec]);
    expect(ids(await t.call(member.token, 'GET', `/API/v3/messages?libraryId=${groupId}`))).toEqual([
      viaLibrary,
      viaSpec,
    ]);

    const read = await t.call(member.token, 'GET', `/API/v3/messages/${viaLibrary}?libraryId=${groupId}`);
    expect(read.body.result).toMatchObject({ id: viaLibrary, description: 'team invite' });
    const put = await t.call(member.token, 'PUT', `${base}/${viaSpec}`, { description: 'team reminder 2' });
    expect(put.status).toBe(200);
    expect((await t.call(member.token, 'GET', `${base}/${viaSpec}`)).body.result.description).toBe(
      'team reminder 2',
    );
    expect(
      (await t.call(member.token, 'DELETE', `/API/v3/messages/${viaSpec}?libraryId=${groupId}`)).status,
    ).toBe(200);
    expect(ids(await t.call(member.token, 'GET', base))).toEqual([viaLibrary]);
  });

  it('answer 404 to a participant who is not a member, and leave the messages alone', async () => {
    const base = `/API/v3/libraries/${groupId}/messages`;
    const id = await create(member.token, base, 'members only');
    expectNotFound(await t.call(outsider.token, 'GET', base), 'FW_LIB_1');
    expectNotFound(await t.call(outsider.token, 'GET', `/API/v3/messages?libraryId=${groupId}`), 'FW_LIB_1');
    expectNotFound(await t.call(outsider.token, 'GET', `${base}/${id}`), 'FW_LIB_1');
    expectNotFound(
      await t.call(outsider.token, 'PUT', `${base}/${id}`, { description: 'mine now' }),
      'FW_LIB_1',
    );
    expectNotFound(await t.call(outsider.token, 'DELETE', `${base}/${id}`), 'FW_LIB_1');
    expectNotFound(await t.call(outsider.token, 'POST', base, body('sneaked in')), 'FW_LIB_1');
    // Without libraryId the spec's spelling looks in the caller's own library only.
    expectNotFound(await t.call(outsider.token, 'GET', `/API/v3/messages/${id}`), 'FW_MSG_1');
    expectNotFound(await t.call(outsider.token, 'DELETE', `/API/v3/messages/${id}`), 'FW_MSG_1');
    const still = await t.call(member.token, 'GET', `${base}/${id}`);
    expect(still.body.result.description).toBe('members only');
    const listed = await t.call(member.token, 'GET', base);
    const descriptions = listed.body.result.elements.map((e: { description: string }) => e.description);
    expect(descriptions).toContain('members only');
    expect(descriptions).not.toContain('sneaked in');
  });

  it('close to a member who leaves the group', async () => {
    const leaver = await createUserWithToken(t, admin.apiToken);
    await t.call(admin.apiToken, 'POST', `/API/v3/groups/${groupId}/members`, { userId: leaver.userId });
    const base = `/API/v3/libraries/${groupId}/messages`;
    expect((await t.call(leaver.token, 'GET', base)).status).toBe(200);
    await t.call(admin.apiToken, 'DELETE', `/API/v3/groups/${groupId}/members/${leaver.userId}`);
    expectNotFound(await t.call(leaver.token, 'GET', base), 'FW_LIB_1');
  });

  it('are open to a brand administrator who is not a member', async () => {
    const base = `/API/v3/libraries/${groupId}/messages`;
    const id = await create(admin.apiToken, base, 'from the admin');
    expect((await t.call(member.token, 'GET', `${base}/${id}`)).status).toBe(200);
  });
});

describe('user libraries', () => {
  it("are their owner's; another participant gets 404", async () => {
    const id = await create(member.token, '/API/v3/messages', 'private');
    const base = `/API/v3/libraries/${member.userId}/messages`;
    expect(ids(await t.call(member.token, 'GET', base))).toContain(id);
    expectNotFound(await t.call(outsider.token, 'GET', base), 'FW_LIB_1');
    expectNotFound(await t.call(outsider.token, 'GET', `${base}/${id}`), 'FW_LIB_1');
    expectNotFound(await t.call(outsider.token, 'GET', `/API/v3/messages/${id}`), 'FW_MSG_1');
    expectNotFound(await t.call(outsider.token, 'POST', base, body('planted')), 'FW_LIB_1');
  });

  it('are all open to a brand administrator of the organisation', async () => {
    const id = await create(member.token, '/API/v3/messages', 'for the admin to see');
    const base = `/API/v3/libraries/${member.userId}/messages`;
    expect(ids(await t.call(admin.apiToken, 'GET', base))).toContain(id);
    expect(
      (await t.call(admin.apiToken, 'PUT', `${base}/${id}`, { description: 'edited by admin' })).status,
    ).toBe(200);
    const read = await t.call(member.token, 'GET', `/API/v3/messages/${id}`);
    expect(read.body.result.description).toBe('edited by admin');
    // The admin's own library does not hold it: without libraryId, 404.
    expectNotFound(await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}`), 'FW_MSG_1');
    expect(
      (await t.call(admin.apiToken, 'GET', `/API/v3/messages/${id}?libraryId=${member.userId}`)).status,
    ).toBe(200);
  });

  it('do not show a message of one library through another', async () => {
    const inGroup = await create(member.token, `/API/v3/libraries/${groupId}/messages`, 'group one');
    expectNotFound(
      await t.call(member.token, 'GET', `/API/v3/libraries/${member.userId}/messages/${inGroup}`),
      'FW_MSG_1',
    );
    expectNotFound(
      await t.call(member.token, 'DELETE', `/API/v3/libraries/${member.userId}/messages/${inGroup}`),
      'FW_MSG_1',
    );
    expect(
      (await t.call(member.token, 'GET', `/API/v3/libraries/${groupId}/messages/${inGroup}`)).status,
    ).toBe(200);
  });

  it('answer 404 for a library that does not exist', async () => {
    for (const lib of ['UR_000000000000000', 'GR_000000000000000', 'SV_000000000000000', 'nonsense']) {
      expectNotFound(await t.call(admin.apiToken, 'GET', `/API/v3/libraries/${lib}/messages`), 'FW_LIB_1');
      expectNotFound(
        await t.call(admin.apiToken, 'POST', `/API/v3/libraries/${lib}/messages`, body('x')),
        'FW_LIB_1',
      );
      expectNotFound(await t.call(admin.apiToken, 'GET', `/API/v3/messages?libraryId=${lib}`), 'FW_LIB_1');
    }
  });
});

describe('another organisation', () => {
  it("cannot list, read, change, delete or add to this organisation's libraries: 404, never 403", async () => {
    const other = await t.newOrganization();
    const mine = await create(member.token, '/API/v3/messages', 'not for them');
    const inGroup = await create(member.token, `/API/v3/libraries/${groupId}/messages`, 'nor this');
    for (const lib of [member.userId, groupId]) {
      const base = `/API/v3/libraries/${lib}/messages`;
      expectNotFound(await t.call(other.apiToken, 'GET', base), 'FW_LIB_1');
      expectNotFound(await t.call(other.apiToken, 'GET', `/API/v3/messages?libraryId=${lib}`), 'FW_LIB_1');
      expectNotFound(await t.call(other.apiToken, 'POST', base, body('planted')), 'FW_LIB_1');
      for (const id of [mine, inGroup]) {
        expectNotFound(await t.call(other.apiToken, 'GET', `${base}/${id}`), 'FW_LIB_1');
        expectNotFound(
          await t.call(other.apiToken, 'PUT', `${base}/${id}`, { description: 'taken' }),
          'FW_LIB_1',
        );
        expectNotFound(await t.call(other.apiToken, 'DELETE', `${base}/${id}`), 'FW_LIB_1');
      }
    }
    for (const id of [mine, inGroup]) {
      expectNotFound(await t.call(other.apiToken, 'GET', `/API/v3/messages/${id}`), 'FW_MSG_1');
      expectNotFound(
        await t.call(other.apiToken, 'PUT', `/API/v3/messages/${id}`, { description: 'taken' }),
        'FW_MSG_1',
      );
      expectNotFound(await t.call(other.apiToken, 'DELETE', `/API/v3/messages/${id}`), 'FW_MSG_1');
    }
    // Its own library, asked for a message of ours: not found either.
    expectNotFound(
      await t.call(other.apiToken, 'GET', `/API/v3/libraries/${other.userId}/messages/${mine}`),
      'FW_MSG_1',
    );
    expect((await t.call(member.token, 'GET', `/API/v3/messages/${mine}`)).body.result.description).toBe(
      'not for them',
    );
    const group = await t.call(member.token, 'GET', `/API/v3/libraries/${groupId}/messages/${inGroup}`);
    expect(group.body.result.description).toBe('nor this');
    expect(ids(await t.call(other.apiToken, 'GET', '/API/v3/messages'))).toEqual([]);
  });
});
