import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertContacts } from '../../src/modules/contacts/contact-upsert.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { pathOf } from './contacts-helpers.js';

/**
 * GET /v3/directories/{directoryId}/contacts over 25,000 contacts (written through the bulk path the
 * imports use, in one transaction), paged with skipToken and with offset while contacts are added
 * between pages: every contact there was comes exactly once, and so does every one added.
 */
const COUNT = 25_000;
let t: TestApp;
let org: { apiToken: string; directoryId: string; brandId: string };
let url: string;
let existing: Set<string>;
let added = 0;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  url = `/API/v3/directories/${org.directoryId}/contacts`;
  const inputs = Array.from({ length: COUNT }, (_, i) => ({
    email: `c${i}@paging.test`,
    firstName: `C${i}`,
  }));
  const outcome = await t.database.db.transaction().execute((trx) =>
    upsertContacts(
      trx,
      {
        scope: { organizationId: org.brandId },
        directoryId: org.directoryId,
        at: '2026-03-01T12:00:00Z',
        idPrefix: 'CID',
      },
      inputs,
    ),
  );
  expect(outcome.added).toBe(COUNT);
  existing = new Set(outcome.results.map((r) => ('contactId' in r ? r.contactId : '')));
  expect(existing.size).toBe(COUNT);
});
afterAll(() => t.close());

/** Adds contacts through the API, as another client would while the pages are read. */
async function addContacts(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await t.call(org.apiToken, 'POST', url, { email: `added${added++}@paging.test` });
    expect(res.status).toBe(200);
    ids.push(res.body.result.id);
  }
  return ids;
}

/** Follows nextPage from `first` to its end, adding a contact after each page; every id read, in order. */
async function walk(first: string, expectInNext: RegExp, notInNext: RegExp) {
  const read: string[] = [];
  const addedIds: string[] = [];
  let next: string | null = first;
  for (let page = 0; next !== null && page < 100; page++) {
    const res = await t.call(org.apiToken, 'GET', next);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    read.push(...res.body.result.elements.map((e: { contactId: string }) => e.contactId));
    next = res.body.result.nextPage === null ? null : pathOf(res.body.result.nextPage);
    if (next !== null) {
      expect(next).toMatch(expectInNext);
      expect(next).not.toMatch(notInNext);
      expect(next).toContain('pageSize=1000');
      addedIds.push(...(await addContacts(1)));
    }
  }
  expect(next).toBeNull();
  return { read, addedIds };
}

/** Every contact the directory has now. */
async function contactIdsNow(): Promise<Set<string>> {
  const rows = await t.database.db
    .selectFrom('contacts')
    .select('id')
    .where('directory_id', '=', org.directoryId)
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Each contact read once: first every one there was before the walk, then the ones added during it. */
function expectEveryOneOnce(before: Set<string>, read: string[], addedIds: string[]) {
  expect(new Set(read).size).toBe(read.length);
  expect(new Set(read.slice(0, before.size))).toEqual(before);
  expect(read.slice(before.size).sort()).toEqual(addedIds.sort());
}

describe('paging a directory of 25,000 contacts while contacts are added', () => {
  it('with skipToken: no gap, no repeat, and the added contacts after the rest', async () => {
    const before = await contactIdsNow();
    expect(before).toEqual(existing);
    const { read, addedIds } = await walk(
      `${url}?pageSize=1000&useNewPaginationScheme=true`,
      /[?&]skipToken=[A-Za-z0-9_-]+/,
      /[?&]offset=/,
    );
    expectEveryOneOnce(before, read, addedIds);
  });

  it('with offset: no gap, no repeat, and the added contacts after the rest', async () => {
    const before = await contactIdsNow();
    expect(before.size).toBeGreaterThan(COUNT);
    const { read, addedIds } = await walk(`${url}?pageSize=1000`, /[?&]offset=\d+/, /skipToken/);
    expectEveryOneOnce(before, read, addedIds);
  });

  it('answers every field of the record, dates as epoch milliseconds, null where empty', async () => {
    const res = await t.call(org.apiToken, 'GET', `${url}?pageSize=1`);
    const [element] = res.body.result.elements;
    expect(element).toEqual({
      contactId: expect.stringMatching(/^CID_[A-Za-z0-9]{15}$/),
      firstName: expect.stringMatching(/^C\d+$/),
      lastName: null,
      email: expect.stringMatching(/@paging\.test$/),
      phone: null,
      extRef: null,
      language: null,
      unsubscribed: false,
      embeddedData: null,
      bounced: false,
      creationDate: Date.parse('2026-03-01T12:00:00Z'),
      lastModified: Date.parse('2026-03-01T12:00:00Z'),
    });
    expect(res.body.result.nextPage).toContain('offset=1');
  });

  it('refuses a skipToken it did not give and one with an offset, naming the parameter', async () => {
    for (const [query, field] of [
      ['skipToken=not-a-token', 'skipToken'],
      [`skipToken=${Buffer.from('1.CID_x; drop').toString('base64url')}`, 'skipToken'],
      ['skipToken=MS5DSURfeA&offset=5', 'offset'],
      ['pageSize=1001', 'pageSize'],
    ] as const) {
      const res = await t.call(org.apiToken, 'GET', `${url}?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain(field);
    }
    const unknown = await t.call(org.apiToken, 'GET', '/API/v3/directories/POOL_000000000000000/contacts');
    expect(unknown.status).toBe(404);
    expect(unknown.body.meta.error.errorCode).toBe('FW_DIR_1');
  });
});
