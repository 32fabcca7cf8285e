import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapOrganization } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

// Issue 19, defect 10: usernames were unique across the store, so one organisation's administrator could
// take `admin@squat` and block `fieldwork init --brand squat`, and a 409 told them a name existed elsewhere.

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const newUser = (username: string) => ({
  username,
  firstName: 'Pat',
  lastName: 'Doe',
  userType: 'UT_PARTICIPANT',
  email: 'pat@example.com',
});

async function usernamesOf(token: string): Promise<string[]> {
  const list = await t.call(token, 'GET', '/API/v3/users');
  expect(list.status).toBe(200);
  return (list.body.result.elements as { username: string }[]).map((user) => user.username).sort();
}

describe('usernames are unique within an organisation only', () => {
  it('lets another organisation take admin@squat, and still bootstraps the brand squat', async () => {
    const other = await t.newOrganization();
    const taken = await t.call(other.apiToken, 'POST', '/API/v3/users', newUser('admin@squat'));
    expect(taken.status).toBe(200);

    const squat = await bootstrapOrganization(t.database.db, t.clock.now(), { brandId: 'squat' });
    const whoami = await t.call(squat.apiToken, 'GET', '/API/v3/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body.result).toMatchObject({ brandId: 'squat', userName: 'admin@squat' });

    // Each organisation keeps its own admin@squat.
    expect(await usernamesOf(squat.apiToken)).toEqual(['admin@squat']);
    expect(await usernamesOf(other.apiToken)).toContain('admin@squat');
    const theirs = await t.call(other.apiToken, 'GET', `/API/v3/users/${taken.body.result.id}`);
    expect(theirs.body.result).toMatchObject({ username: 'admin@squat' });
  });

  it('creates and renames to a name another organisation uses, with no 409', async () => {
    const a = await t.newOrganization();
    const b = await t.newOrganization();
    expect((await t.call(a.apiToken, 'POST', '/API/v3/users', newUser('jo.shared'))).status).toBe(200);
    expect((await t.call(b.apiToken, 'POST', '/API/v3/users', newUser('jo.shared'))).status).toBe(200);

    const created = await t.call(b.apiToken, 'POST', '/API/v3/users', newUser('kim.own'));
    expect(created.status).toBe(200);
    expect((await t.call(a.apiToken, 'POST', '/API/v3/users', newUser('kim.elsewhere'))).status).toBe(200);
    const renamed = await t.call(b.apiToken, 'PUT', `/API/v3/users/${created.body.result.id}`, {
      username: 'kim.elsewhere',
    });
    expect(renamed.status).toBe(200);
    expect(await usernamesOf(b.apiToken)).toEqual([`admin@${b.brandId}`, 'jo.shared', 'kim.elsewhere']);
  });

  it("answers 409 for a name taken in the caller's own organisation, and changes nothing", async () => {
    const a = await t.newOrganization();
    const b = await t.newOrganization();
    expect((await t.call(b.apiToken, 'POST', '/API/v3/users', newUser('sam.b'))).status).toBe(200);
    const first = await t.call(a.apiToken, 'POST', '/API/v3/users', newUser('sam.a'));
    const second = await t.call(a.apiToken, 'POST', '/API/v3/users', newUser('sam.a2'));
    const before = await usernamesOf(a.apiToken);

    const duplicate = await t.call(a.apiToken, 'POST', '/API/v3/users', newUser('sam.a'));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.meta.error.errorCode).toBe('FW_USR_2');
    expect(duplicate.body.meta.error.errorMessage).toContain('in this organization');
    expect(JSON.stringify(duplicate.body)).not.toContain(b.brandId);

    const rename = await t.call(a.apiToken, 'PUT', `/API/v3/users/${second.body.result.id}`, {
      username: 'sam.a',
    });
    expect(rename.status).toBe(409);
    expect(rename.body.meta.error.errorCode).toBe('FW_USR_2');
    expect(await usernamesOf(a.apiToken)).toEqual(before);
    const kept = await t.call(a.apiToken, 'GET', `/API/v3/users/${first.body.result.id}`);
    expect(kept.body.result.username).toBe('sam.a');
  });
});
