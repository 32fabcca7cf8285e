import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { addListContact, createDirectoryList } from './contacts-helpers.js';

let t: TestApp;
let org: { apiToken: string; directoryId: string; userId: string };
let lists: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization({ targetAudience: true });
  lists = `/API/v3/directories/${org.directoryId}/mailinglists`;
});
afterAll(() => t.close());

const ids = (res: { body: { result: { elements: { contactId: string }[] } } }) =>
  res.body.result.elements.map((e) => e.contactId).sort();

describe('directory mailing lists', () => {
  it('creates, lists, reads, renames and deletes a list', async () => {
    const created = await t.call(org.apiToken, 'POST', lists, { name: 'Panel A' });
    expect(created.status).toBe(200);
    const id = created.body.result.id;
    expect(id).toMatch(/^CG_[A-Za-z0-9]{15}$/);
    await addListContact(t, org.apiToken, org.directoryId, id);

    const all = await t.call(org.apiToken, 'GET', lists);
    const element = all.body.result.elements.find((l: { mailingListId: string }) => l.mailingListId === id);
    expect(Object.keys(element).sort()).toEqual([
      'contactCount',
      'creationDate',
      'lastModifiedDate',
      'mailingListId',
      'name',
      'ownerId',
    ]);
    expect(element).toMatchObject({ name: 'Panel A', ownerId: org.userId, contactCount: 1 });
    expect(Number.isInteger(element.creationDate)).toBe(true);
    expect(element.creationDate).toBeGreaterThan(Date.parse('2020-01-01'));

    expect((await t.call(org.apiToken, 'PUT', `${lists}/${id}`, { name: 'Panel B' })).status).toBe(200);
    const read = await t.call(org.apiToken, 'GET', `${lists}/${id}`);
    expect(read.body.result).toMatchObject({ mailingListId: id, name: 'Panel B', contactCount: 1 });

    expect((await t.call(org.apiToken, 'DELETE', `${lists}/${id}`)).status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `${lists}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error).toEqual({ errorMessage: 'Mailing List not found', errorCode: 'PACC_6' });
  });

  it('refuses an owner who is not a user of the organisation, and a list of another directory path', async () => {
    const bad = await t.call(org.apiToken, 'POST', lists, { name: 'x', ownerId: 'UR_000000000000000' });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error.errorMessage).toContain('ownerId');
    const legacy = await t.call(org.apiToken, 'POST', '/API/v3/mailinglists', { name: 'legacy' });
    const other = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/directories/POOL_000000000000000/mailinglists/${legacy.body.result.id}`,
    );
    expect(other.status).toBe(404);
  });
});

describe('contacts in a directory list', () => {
  it('adds a contact to the directory and the list, answering its id and lookup id', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const created = await addListContact(t, org.apiToken, org.directoryId, listId, {
      email: 'member@example.com',
      embeddedData: { seat: '12A' },
    });
    expect(created.id).toMatch(/^CID_[A-Za-z0-9]{15}$/);
    expect(created.contactLookupId).toMatch(/^CGC_[A-Za-z0-9]{15}$/);
    const inDirectory = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/directories/${org.directoryId}/contacts/${created.id}`,
    );
    expect(inDirectory.body.result.email).toBe('member@example.com');
    const inList = await t.call(org.apiToken, 'GET', `${lists}/${listId}/contacts/${created.id}`);
    expect(inList.body.result).toMatchObject({
      contactId: created.id,
      contactLookupId: created.contactLookupId,
      embeddedData: { seat: '12A' },
    });
    // The same person added again is the same contact, with the same lookup id.
    const again = await addListContact(t, org.apiToken, org.directoryId, listId, {
      email: 'MEMBER@example.com',
    });
    expect(again).toEqual(created);
  });

  it('changes and removes a list contact; the contact stays in the directory', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const { id } = await addListContact(t, org.apiToken, org.directoryId, listId);
    const put = await t.call(org.apiToken, 'PUT', `${lists}/${listId}/contacts/${id}`, {
      firstName: 'Changed',
      phone: '123',
    });
    expect(put.status).toBe(200);
    const read = await t.call(org.apiToken, 'GET', `${lists}/${listId}/contacts/${id}`);
    expect(read.body.result).toMatchObject({ firstName: 'Changed', phone: '123' });
    expect((await t.call(org.apiToken, 'DELETE', `${lists}/${listId}/contacts/${id}`)).status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `${lists}/${listId}/contacts/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_CON_1');
    expect(
      (await t.call(org.apiToken, 'GET', `/API/v3/directories/${org.directoryId}/contacts/${id}`)).status,
    ).toBe(200);
  });
});

describe('opting out (spec 9.5) and bounces', () => {
  it('keeps list and directory opt-outs apart, and lists both in optedOutContacts', async () => {
    const listA = await createDirectoryList(t, org.apiToken, org.directoryId);
    const listB = await createDirectoryList(t, org.apiToken, org.directoryId);
    const stays = await addListContact(t, org.apiToken, org.directoryId, listA);
    const leavesList = await addListContact(t, org.apiToken, org.directoryId, listA);
    const leavesAll = await addListContact(t, org.apiToken, org.directoryId, listA);
    await t.call(org.apiToken, 'POST', `${lists}/${listB}/contacts`, { email: await emailOf(leavesList.id) });
    await t.call(org.apiToken, 'POST', `${lists}/${listB}/contacts`, { email: await emailOf(leavesAll.id) });

    await t.call(org.apiToken, 'PUT', `${lists}/${listA}/contacts/${leavesList.id}`, { unsubscribed: true });
    await t.call(org.apiToken, 'PUT', `/API/v3/directories/${org.directoryId}/contacts/${leavesAll.id}`, {
      unsubscribed: true,
    });

    const optedOutA = await t.call(org.apiToken, 'GET', `${lists}/${listA}/optedOutContacts`);
    expect(optedOutA.status).toBe(200);
    expect(ids(optedOutA)).toEqual([leavesList.id, leavesAll.id].sort());
    expect(optedOutA.body.result.elements.every((e: { unsubscribed: boolean }) => e.unsubscribed)).toBe(true);
    // Opting out of list A is not opting out of list B; opting out of the directory is.
    const optedOutB = await t.call(org.apiToken, 'GET', `${lists}/${listB}/optedOutContacts`);
    expect(ids(optedOutB)).toEqual([leavesAll.id]);
    const contactsA = await t.call(org.apiToken, 'GET', `${lists}/${listA}/contacts`);
    const flags = Object.fromEntries(
      contactsA.body.result.elements.map((e: { contactId: string; unsubscribed: boolean }) => [
        e.contactId,
        e.unsubscribed,
      ]),
    );
    expect(flags).toEqual({ [stays.id]: false, [leavesList.id]: true, [leavesAll.id]: true });

    // Re-subscribing to the list through the list path.
    await t.call(org.apiToken, 'PUT', `${lists}/${listA}/contacts/${leavesList.id}`, { unsubscribed: false });
    expect(ids(await t.call(org.apiToken, 'GET', `${lists}/${listA}/optedOutContacts`))).toEqual([
      leavesAll.id,
    ]);
  });

  it('lists bounced contacts, set and cleared through the API', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const fine = await addListContact(t, org.apiToken, org.directoryId, listId);
    const bounced = await addListContact(t, org.apiToken, org.directoryId, listId);
    await t.call(org.apiToken, 'PUT', `${lists}/${listId}/contacts/${bounced.id}`, { bounced: true });
    const res = await t.call(org.apiToken, 'GET', `${lists}/${listId}/bouncedContacts`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([bounced.id]);
    expect(res.body.result.nextPage).toBeNull();
    expect(Object.keys(res.body.result.elements[0]).sort()).toEqual([
      'contactId',
      'email',
      'extRef',
      'firstName',
      'language',
      'lastName',
      'phone',
      'unsubscribed',
    ]);
    await t.call(org.apiToken, 'PUT', `${lists}/${listId}/contacts/${bounced.id}`, { bounced: false });
    expect(ids(await t.call(org.apiToken, 'GET', `${lists}/${listId}/bouncedContacts`))).toEqual([]);
    expect(fine.id).toBeTruthy();
  });

  it('pages optedOutContacts and refuses a bad pageSize', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    for (let i = 0; i < 3; i++)
      await addListContact(t, org.apiToken, org.directoryId, listId, { unsubscribed: true });
    const first = await t.call(org.apiToken, 'GET', `${lists}/${listId}/optedOutContacts?pageSize=2`);
    expect(first.body.result.elements).toHaveLength(2);
    const next = new URL(first.body.result.nextPage);
    const second = await t.call(org.apiToken, 'GET', `${next.pathname}${next.search}`);
    expect(second.body.result.elements).toHaveLength(1);
    expect(second.body.result.nextPage).toBeNull();
    const bad = await t.call(org.apiToken, 'GET', `${lists}/${listId}/optedOutContacts?pageSize=10001`);
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error.errorMessage).toContain('pageSize');
  });
});

async function emailOf(contactId: string): Promise<string> {
  const res = await t.call(
    org.apiToken,
    'GET',
    `/API/v3/directories/${org.directoryId}/contacts/${contactId}`,
  );
  return res.body.result.email;
}
