import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationRows } from '../helpers/rows.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let org: { apiToken: string; directoryId: string; userId: string; brandId: string };

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(() => t.close());

/** Every list, member, sample and contact row of the organisation: a refused call leaves them as they were. */
const contactRows = () =>
  organizationRows(t, org.brandId, [
    'mailing_lists',
    'mailing_list_members',
    'samples',
    'sample_members',
    'contacts',
  ]);

/** Rows of `table` that belong to one mailing list (members, samples) or one sample (its members). */
async function rowsOf(table: 'mailing_list_members' | 'samples', listId: string): Promise<number> {
  const rows = await t.database.db
    .selectFrom(table)
    .select('organization_id')
    .where('mailing_list_id', '=', listId)
    .execute();
  return rows.length;
}

async function createList(body: Record<string, unknown> = { name: 'Legacy panel' }): Promise<string> {
  const res = await t.call(org.apiToken, 'POST', '/API/v3/mailinglists', body);
  expect(res.status).toBe(200);
  return res.body.result.id;
}

describe('/v3/mailinglists (spec 4.6)', () => {
  it('creates, lists, reads, changes and deletes a list', async () => {
    const id = await createList({ name: 'Customers', category: 'Retail', folder: 'Q3' });
    expect(id).toMatch(/^ML_[A-Za-z0-9]{15}$/);
    const list = await t.call(org.apiToken, 'GET', '/API/v3/mailinglists');
    expect(list.body.result.elements).toContainEqual({
      libraryId: org.userId,
      id,
      name: 'Customers',
      category: 'Retail',
      folder: 'Q3',
    });
    expect(
      (await t.call(org.apiToken, 'PUT', `/API/v3/mailinglists/${id}`, { name: 'Clients', folder: null }))
        .status,
    ).toBe(200);
    const read = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}`);
    expect(read.body.result).toEqual({
      libraryId: org.userId,
      id,
      name: 'Clients',
      category: 'Retail',
      folder: null,
    });
    // A legacy list lives in the default directory, so the directory paths see it too.
    const viaDirectory = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/directories/${org.directoryId}/mailinglists/${id}`,
    );
    expect(viaDirectory.body.result.name).toBe('Clients');
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${id}`)).status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('PACC_6');
  });

  it('answers 400 naming the field for a missing name, and makes no list', async () => {
    const before = await contactRows();
    const res = await t.call(org.apiToken, 'POST', '/API/v3/mailinglists', { category: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toContain('name');
    expect(await contactRows()).toEqual(before);
  });

  it('adds, reads, lists, changes and removes members as legacy records', async () => {
    const id = await createList();
    const added = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/contacts`, {
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@example.com',
      externalDataReference: 'AT-1',
      language: 'en-GB',
      embeddedData: { college: 'Kings' },
    });
    expect(added.status).toBe(200);
    const contactId = added.body.result.id;
    expect(contactId).toMatch(/^MLRP_[A-Za-z0-9]{15}$/);
    const read = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts/${contactId}`);
    expect(read.body.result).toEqual({
      id: contactId,
      firstName: 'Alan',
      lastName: 'Turing',
      email: 'alan@example.com',
      externalDataReference: 'AT-1',
      embeddedData: { college: 'Kings' },
      language: 'en-GB',
      unsubscribed: false,
    });
    await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/contacts`, { email: 'bare@example.com' });
    const members = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts?pageSize=1`);
    expect(members.body.result.elements).toHaveLength(1);
    expect(members.body.result.nextPage).toContain('pageSize=1');
    const all = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts`);
    const bare = all.body.result.elements.find((m: { email: string }) => m.email === 'bare@example.com');
    expect(bare).toMatchObject({
      firstName: null,
      lastName: null,
      externalDataReference: null,
      embeddedData: null,
      language: null,
    });

    const put = await t.call(org.apiToken, 'PUT', `/API/v3/mailinglists/${id}/contacts/${contactId}`, {
      unsubscribed: true,
      externalDataReference: 'AT-2',
    });
    expect(put.status).toBe(200);
    const changed = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts/${contactId}`);
    expect(changed.body.result).toMatchObject({ unsubscribed: true, externalDataReference: 'AT-2' });
    expect(
      (await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${id}/contacts/${contactId}`)).status,
    ).toBe(200);
    const removed = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts/${contactId}`);
    expect(removed.status).toBe(404);
    expect(removed.body.meta.error.errorCode).toBe('FW_CON_1');
    const left = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/contacts`);
    expect(left.body.result.elements.map((m: { email: string }) => m.email)).toEqual(['bare@example.com']);
  });
});

describe('samples', () => {
  it('draws a stored random sample of the given size, never an opted-out contact', async () => {
    const id = await createList();
    const contacts = Array.from({ length: 30 }, (_, i) => ({
      email: `s${i}@example.com`,
      unsubscribed: i < 5,
    }));
    for (const contact of contacts)
      await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/contacts`, contact);

    const created = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/samples`, {
      name: 'Pilot',
      size: 10,
    });
    expect(created.status).toBe(200);
    const sampleId = created.body.result.id;
    expect(sampleId).toMatch(/^SMP_[A-Za-z0-9]{15}$/);
    const sample = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/samples/${sampleId}`);
    expect(sample.body.result).toMatchObject({ id: sampleId, name: 'Pilot', mailingListId: id, size: 10 });
    const drawn = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/mailinglists/${id}/samples/${sampleId}/contacts`,
    );
    const emails: string[] = drawn.body.result.elements.map((c: { email: string }) => c.email);
    expect(new Set(emails).size).toBe(10);
    for (const email of emails) expect(Number(email.slice(1, email.indexOf('@')))).toBeGreaterThanOrEqual(5);
    // Stored: reading it again gives the same people.
    const again = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/mailinglists/${id}/samples/${sampleId}/contacts`,
    );
    expect(again.body.result.elements.map((c: { email: string }) => c.email)).toEqual(emails);

    const whole = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/samples`, { size: 1000 });
    const wholeRead = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/mailinglists/${id}/samples/${whole.body.result.id}`,
    );
    expect(wholeRead.body.result.size).toBe(25);
    const listed = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/samples`);
    expect(listed.body.result.elements.map((s: { id: string }) => s.id).sort()).toEqual(
      [sampleId, whole.body.result.id].sort(),
    );
    expect(listed.body.result.elements[0].creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('refuses a size of 0 naming size, and answers 404 FW_CON_5 for an unknown sample', async () => {
    const id = await createList();
    const before = await contactRows();
    const bad = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/samples`, { size: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(bad.body.meta.error.errorMessage).toContain('size');
    expect(await contactRows()).toEqual(before);
    const missing = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/mailinglists/${id}/samples/SMP_000000000000000`,
    );
    expect(missing.status).toBe(404);
    expect(missing.body.meta.error.errorCode).toBe('FW_CON_5');
  });

  it('deletes a list with its members and samples, keeping the contacts in the directory', async () => {
    const id = await createList();
    const kept = await createList({ name: 'Untouched' });
    const added = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/contacts`, {
      email: 'keep@example.com',
    });
    expect(added.status).toBe(200);
    const other = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${kept}/contacts`, {
      email: 'other@example.com',
    });
    expect(other.status).toBe(200);
    const sample = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${id}/samples`, { size: 1 });
    expect(sample.status).toBe(200);
    const sampleId = sample.body.result.id as string;
    const keptSample = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${kept}/samples`, {
      size: 1,
    });
    expect(keptSample.status).toBe(200);
    expect([await rowsOf('mailing_list_members', id), await rowsOf('samples', id)]).toEqual([1, 1]);
    const sampleMembers = () =>
      t.database.db
        .selectFrom('sample_members')
        .select('contact_id')
        .where('sample_id', '=', sampleId)
        .execute();
    expect(await sampleMembers()).toHaveLength(1);

    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${id}`)).status).toBe(200);

    const gone = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('PACC_6');
    const goneSample = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${id}/samples/${sampleId}`);
    expect(goneSample.status).toBe(404);
    expect(goneSample.body.meta.error.errorCode).toBe('PACC_6');
    // Its members, samples and sample members went with it; the other list kept its own.
    expect([await rowsOf('mailing_list_members', id), await rowsOf('samples', id)]).toEqual([0, 0]);
    expect(await sampleMembers()).toEqual([]);
    expect([await rowsOf('mailing_list_members', kept), await rowsOf('samples', kept)]).toEqual([1, 1]);
    const contact = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/directories/${org.directoryId}/contacts/${added.body.result.id}`,
    );
    expect(contact.status).toBe(200);
    expect(contact.body.result.email).toBe('keep@example.com');
  });
});
