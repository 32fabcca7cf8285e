import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let admin: { apiToken: string; userId: string; brandId: string };
let participant: { token: string; userId: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.newOrganization();
  participant = await createUserWithToken(t, admin.apiToken);
});
afterAll(() => t.close());

describe('organizations', () => {
  it("returns the caller's organization", async () => {
    const res = await t.call(admin.apiToken, 'GET', `/API/v3/organizations/${admin.brandId}`);
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ id: admin.brandId, status: 'Active', targetAudience: false });
    expect(res.body.result.baseUrl).toMatch(/^http:\/\//);
    expect(res.body.result.stats.userCount).toBeGreaterThanOrEqual(2);
  });

  it('lets a brand administrator switch the target-audience variant, and nobody else', async () => {
    const url = `/API/v3/organizations/${admin.brandId}`;
    expect((await t.call(participant.token, 'PUT', url, { targetAudience: true })).status).toBe(403);
    expect((await t.call(admin.apiToken, 'PUT', url, { targetAudience: true })).status).toBe(200);
    expect((await t.call(admin.apiToken, 'GET', url)).body.result.targetAudience).toBe(true);
    await t.call(admin.apiToken, 'PUT', url, { targetAudience: false });
    expect((await t.call(admin.apiToken, 'GET', url)).body.result.targetAudience).toBe(false);
  });
});

describe('divisions', () => {
  it('creates, lists and reads divisions; a user can be placed in one', async () => {
    const created = await t.call(admin.apiToken, 'POST', '/API/v3/divisions', {
      name: 'Research',
      divisionAdmins: [admin.userId],
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(id).toMatch(/^DV_[A-Za-z0-9]{15}$/);
    const read = await t.call(participant.token, 'GET', `/API/v3/divisions/${id}`);
    expect(read.body.result).toMatchObject({
      id,
      name: 'Research',
      status: 'Active',
      divisionAdmins: [admin.userId],
    });
    const list = await t.call(admin.apiToken, 'GET', '/API/v3/divisions');
    expect(list.body.result.elements.map((d: { id: string }) => d.id)).toContain(id);
    expect(list.body.result.nextPage).toBeNull();

    const moved = await t.call(admin.apiToken, 'PUT', `/API/v3/users/${participant.userId}`, {
      divisionId: id,
    });
    expect(moved.status).toBe(200);
    const user = await t.call(admin.apiToken, 'GET', `/API/v3/users/${participant.userId}`);
    expect(user.body.result.divisionId).toBe(id);
  });

  it('refuses a duplicate name, an unknown admin, a participant and an unknown division', async () => {
    await t.call(admin.apiToken, 'POST', '/API/v3/divisions', { name: 'Sales' });
    const duplicate = await t.call(admin.apiToken, 'POST', '/API/v3/divisions', { name: 'Sales' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.meta.error.errorCode).toBe('FW_DIV_2');
    const badAdmin = await t.call(admin.apiToken, 'POST', '/API/v3/divisions', {
      name: 'Ops',
      divisionAdmins: ['UR_000000000000000'],
    });
    expect(badAdmin.status).toBe(400);
    expect(badAdmin.body.meta.error.errorMessage).toContain('divisionAdmins');
    expect((await t.call(participant.token, 'POST', '/API/v3/divisions', { name: 'Mine' })).status).toBe(403);
    const missing = await t.call(admin.apiToken, 'GET', '/API/v3/divisions/DV_000000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.meta.error.errorCode).toBe('FW_DIV_1');
    const badUserDivision = await t.call(admin.apiToken, 'PUT', `/API/v3/users/${participant.userId}`, {
      divisionId: 'DV_000000000000000',
    });
    expect(badUserDivision.status).toBe(400);
  });
});

describe('groups', () => {
  it('creates a group, adds and removes members, and deletes it', async () => {
    const created = await t.call(admin.apiToken, 'POST', '/API/v3/groups', {
      name: 'Panel team',
      type: 'GT_DEFAULT',
    });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(id).toMatch(/^GR_[A-Za-z0-9]{15}$/);

    const list = await t.call(admin.apiToken, 'GET', '/API/v3/groups');
    const group = list.body.result.elements.find((g: { id: string }) => g.id === id);
    expect(group).toEqual({
      id,
      type: 'GT_DEFAULT',
      divisionId: null,
      name: 'Panel team',
      autoMembership: false,
      creationDate: expect.stringMatching(/Z$/),
      creatorId: admin.userId,
    });

    const members = `/API/v3/groups/${id}/members`;
    expect((await t.call(admin.apiToken, 'POST', members, { userId: participant.userId })).status).toBe(200);
    expect((await t.call(admin.apiToken, 'POST', members, { userId: participant.userId })).status).toBe(200);
    let read = await t.call(admin.apiToken, 'GET', `/API/v3/groups/${id}`);
    expect(read.body.result.members).toEqual([{ userId: participant.userId }]);

    expect((await t.call(admin.apiToken, 'DELETE', members, { userId: participant.userId })).status).toBe(
      200,
    );
    read = await t.call(admin.apiToken, 'GET', `/API/v3/groups/${id}`);
    expect(read.body.result.members).toEqual([]);
    const again = await t.call(admin.apiToken, 'DELETE', `${members}?userId=${participant.userId}`);
    expect(again.status).toBe(404);

    await t.call(admin.apiToken, 'POST', members, { userId: participant.userId });
    expect((await t.call(admin.apiToken, 'DELETE', `${members}/${participant.userId}`)).status).toBe(200);

    expect((await t.call(admin.apiToken, 'DELETE', `/API/v3/groups/${id}`)).status).toBe(200);
    const gone = await t.call(admin.apiToken, 'GET', `/API/v3/groups/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_GRP_1');
  });

  it('needs a user id to remove a member, and a brand administrator to manage groups', async () => {
    const created = await t.call(admin.apiToken, 'POST', '/API/v3/groups', { name: 'Needs id' });
    const res = await t.call(admin.apiToken, 'DELETE', `/API/v3/groups/${created.body.result.id}/members`);
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toContain('userId');
    expect((await t.call(participant.token, 'POST', '/API/v3/groups', { name: 'Nope' })).status).toBe(403);
    const add = await t.call(admin.apiToken, 'POST', `/API/v3/groups/${created.body.result.id}/members`, {
      userId: 'UR_000000000000000',
    });
    expect(add.status).toBe(404);
  });
});
