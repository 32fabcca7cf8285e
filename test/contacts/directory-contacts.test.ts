import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

let t: TestApp;
let org: { apiToken: string; directoryId: string; userId: string };
let contacts: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  contacts = `/API/v3/directories/${org.directoryId}/contacts`;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) => {
  const res = await t.call(org.apiToken, 'POST', contacts, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as string;
};

describe('directories', () => {
  it('lists the default directory with its contact count', async () => {
    const before = await t.call(org.apiToken, 'GET', '/API/v3/directories');
    expect(before.status).toBe(200);
    expect(before.body.result.nextPage).toBeNull();
    expect(before.body.result.elements).toEqual([
      { directoryId: org.directoryId, name: 'Default Directory', contactCount: 0, isDefault: true },
    ]);
    await create({ email: 'count@example.com' });
    const after = await t.call(org.apiToken, 'GET', '/API/v3/directories');
    expect(after.body.result.elements[0].contactCount).toBe(1);
  });

  it('answers 404 FW_DIR_1 for an unknown directory', async () => {
    const res = await t.call(org.apiToken, 'POST', '/API/v3/directories/POOL_000000000000000/contacts', {
      email: 'x@example.com',
    });
    expect(res.status).toBe(404);
    expect(res.body.meta.error.errorCode).toBe('FW_DIR_1');
  });
});

describe('directory contacts', () => {
  it('creates, reads, changes and deletes a contact with every field', async () => {
    const id = await create({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'Grace@Example.com',
      phone: '+1 (555) 010-0000',
      extRef: 'emp-1',
      language: 'en-US',
      embeddedData: { team: 'Navy', rank: 'Rear Admiral' },
    });
    expect(id).toMatch(/^CID_[A-Za-z0-9]{15}$/);
    const read = await t.call(org.apiToken, 'GET', `${contacts}/${id}`);
    expect(read.body.result).toMatchObject({
      contactId: id,
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'Grace@Example.com',
      phone: '+1 (555) 010-0000',
      extRef: 'emp-1',
      language: 'en-US',
      unsubscribed: false,
      bounced: false,
      embeddedData: { team: 'Navy', rank: 'Rear Admiral' },
    });
    expect(Number.isInteger(read.body.result.creationDate)).toBe(true);

    const put = await t.call(org.apiToken, 'PUT', `${contacts}/${id}`, {
      lastName: null,
      unsubscribed: true,
      bounced: true,
      embeddedData: { rank: '', ship: 'USS Hopper' },
    });
    expect(put.status).toBe(200);
    expect(put.body).not.toHaveProperty('result');
    const changed = await t.call(org.apiToken, 'GET', `${contacts}/${id}`);
    expect(changed.body.result).toMatchObject({
      firstName: 'Grace',
      lastName: null,
      unsubscribed: true,
      bounced: true,
      embeddedData: { team: 'Navy', ship: 'USS Hopper' },
    });

    expect((await t.call(org.apiToken, 'DELETE', `${contacts}/${id}`)).status).toBe(200);
    const gone = await t.call(org.apiToken, 'GET', `${contacts}/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.meta.error.errorCode).toBe('FW_CON_1');
  });

  it('matches a second create on extRef, else on email (case-insensitive), instead of duplicating', async () => {
    const first = await create({ email: 'dup@example.com', firstName: 'A' });
    expect(await create({ email: 'DUP@example.com', lastName: 'B' })).toBe(first);
    const withRef = await create({ extRef: 'ref-dup', email: 'other@example.com' });
    expect(await create({ extRef: 'ref-dup', email: 'changed@example.com' })).toBe(withRef);
    const read = await t.call(org.apiToken, 'GET', `${contacts}/${first}`);
    expect(read.body.result).toMatchObject({ firstName: 'A', lastName: 'B' });
  });

  it('refuses an extRef another contact has, with 409 FW_CON_2', async () => {
    await create({ extRef: 'taken', email: 'taken@example.com' });
    const other = await create({ extRef: 'free', email: 'free@example.com' });
    const res = await t.call(org.apiToken, 'PUT', `${contacts}/${other}`, { extRef: 'taken' });
    expect(res.status).toBe(409);
    expect(res.body.meta.error.errorCode).toBe('FW_CON_2');
  });

  it.each([
    ['email', { email: 'not-an-email' }],
    ['language', { email: 'l@example.com', language: 'english!' }],
    ['phone', { email: 'p@example.com', phone: 'call me' }],
    ['firstName', { email: 'f@example.com', firstName: 'x'.repeat(201) }],
    ['embeddedData', { email: 'e@example.com', embeddedData: { n: { nested: 'x' } } }],
    ['embeddedData', { email: 'e@example.com', embeddedData: { v: 'x'.repeat(1025) } }],
    ['embeddedData', { email: 'e@example.com', embeddedData: { ['k'.repeat(101)]: 'v' } }],
    ['embeddedData', { email: 'e@example.com', embeddedData: { 'a"b': 'v' } }],
    ['unsubscribed', { email: 'u@example.com', unsubscribed: 'yes' }],
  ])('answers 400 naming %s for bad input', async (field, body) => {
    const res = await t.call(org.apiToken, 'POST', contacts, body);
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toContain(field);
  });

  it('enforces at most 100 embedded data fields, also after a merge', async () => {
    const hundred = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 'v']));
    const id = await create({ email: 'many@example.com', embeddedData: hundred });
    const tooMany = await t.call(org.apiToken, 'PUT', `${contacts}/${id}`, { embeddedData: { extra: 'v' } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.meta.error.errorMessage).toContain('embeddedData');
    const direct = await t.call(org.apiToken, 'POST', contacts, {
      email: 'more@example.com',
      embeddedData: { ...hundred, extra: 'v' },
    });
    expect(direct.status).toBe(400);
  });

  it('lets any user of the organisation manage contacts', async () => {
    const participant = await createUserWithToken(t, org.apiToken);
    const res = await t.call(participant.token, 'POST', contacts, { email: 'by-participant@example.com' });
    expect(res.status).toBe(200);
  });
});

describe('contact search', () => {
  let search: string;
  beforeAll(async () => {
    search = `/API/v3/directories/${org.directoryId}/contacts/search`;
    await create({
      email: 's1@search.test',
      firstName: 'Marie',
      lastName: 'Curie',
      language: 'fr',
      extRef: 's-1',
      embeddedData: { field: 'physics' },
    });
    await create({
      email: 's2@search.test',
      firstName: 'Pierre',
      lastName: 'Curie',
      language: 'fr',
      embeddedData: { field: 'physics' },
    });
    await create({
      email: 's3@search.test',
      firstName: 'Lise',
      lastName: 'Meitner_%',
      language: 'de',
      unsubscribed: true,
      embeddedData: { field: 'chemistry' },
    });
  });
  const emails = (res: { body: { result: { elements: { email: string }[] } } }) =>
    res.body.result.elements.map((e) => e.email).sort();

  it('filters on email, name, extRef, language, unsubscribed and an embedded data field', async () => {
    expect(emails(await t.call(org.apiToken, 'POST', search, { email: 'S1@SEARCH.test' }))).toEqual([
      's1@search.test',
    ]);
    expect(emails(await t.call(org.apiToken, 'POST', search, { name: 'curie' }))).toEqual([
      's1@search.test',
      's2@search.test',
    ]);
    expect(emails(await t.call(org.apiToken, 'POST', search, { name: 'marie curie' }))).toEqual([
      's1@search.test',
    ]);
    expect(emails(await t.call(org.apiToken, 'POST', search, { name: 'meitner_%' }))).toEqual([
      's3@search.test',
    ]);
    expect(emails(await t.call(org.apiToken, 'POST', search, { name: '%' }))).toEqual(['s3@search.test']);
    expect(emails(await t.call(org.apiToken, 'POST', search, { extRef: 's-1' }))).toEqual(['s1@search.test']);
    expect(emails(await t.call(org.apiToken, 'POST', search, { language: 'de' }))).toEqual([
      's3@search.test',
    ]);
    const subscribedPhysicists = await t.call(org.apiToken, 'POST', search, {
      unsubscribed: false,
      embeddedData: { field: 'physics' },
    });
    expect(emails(subscribedPhysicists)).toEqual(['s1@search.test', 's2@search.test']);
    expect(
      emails(await t.call(org.apiToken, 'POST', search, { embeddedData: { field: 'chemistry' } })),
    ).toEqual(['s3@search.test']);
  });

  it('pages with nextPage and takes an empty body as "everything"', async () => {
    const first = await t.call(org.apiToken, 'POST', `${search}?pageSize=2`, { name: 'i' });
    expect(first.body.result.elements).toHaveLength(2);
    expect(first.body.result.nextPage).toContain('offset=2');
    const all = await t.call(org.apiToken, 'POST', search);
    expect(all.status).toBe(200);
    expect(all.body.result.elements.length).toBeGreaterThanOrEqual(3);
    for (const element of all.body.result.elements) {
      expect(Object.keys(element).sort()).toEqual([
        'bounced',
        'contactId',
        'creationDate',
        'email',
        'embeddedData',
        'extRef',
        'firstName',
        'language',
        'lastModified',
        'lastName',
        'phone',
        'unsubscribed',
      ]);
    }
  });

  it('answers 400 naming a bad filter', async () => {
    const res = await t.call(org.apiToken, 'POST', search, { unsubscribed: 'maybe' });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toContain('unsubscribed');
  });
});
