import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { createDirectoryList, pathOf, waitForImport } from './contacts-helpers.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SPEC_2_4_FIELDS = [
  'contactId',
  'email',
  'extRef',
  'firstName',
  'language',
  'lastName',
  'phone',
  'unsubscribed',
];

let t: TestApp;
let org: { apiToken: string; directoryId: string };
let listId: string;
let url: string;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization({ targetAudience: true });
  listId = await createDirectoryList(t, org.apiToken, org.directoryId);
  url = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contacts`;
  // 250 contacts through the API, half of them with only an email (the rest of spec 2.4 empty).
  const contacts = Array.from({ length: 250 }, (_, i) =>
    i % 2 === 0
      ? { email: `p${i}@example.com` }
      : {
          email: `p${i}@example.com`,
          firstName: 'F',
          lastName: `L${i}`,
          phone: '+1 555 0100',
          extRef: `x${i}`,
          language: 'en',
        },
  );
  const started = await t.call(
    org.apiToken,
    'POST',
    `${url.replace(/contacts$/, 'contactimports')}`,
    contacts,
  );
  expect(started.status).toBe(200);
  t.app.workers.start();
  const importUrl = `${url.replace(/contacts$/, 'contactimports')}/${started.body.result.id}`;
  // Every test below counts on all 250 being there: the import must have finished, and added them all.
  const done = await waitForImport(t, org.apiToken, importUrl);
  expect(done.status).toBe(200);
  expect(done.body.result).toMatchObject({
    status: 'complete',
    contacts: { count: { added: 250, updated: 0, failed: 0 } },
  });
});
afterAll(() => t.close());

describe('GET /v3/directories/{directoryId}/mailinglists/{mailingListId}/contacts (spec 4.3)', () => {
  it('walks 250 contacts in pages of 100 by following nextPage verbatim, ending in null', async () => {
    const seen: string[] = [];
    const pageSizes: number[] = [];
    let next: string | null = `${url}?pageSize=100`;
    for (let i = 0; i < 10 && next; i++) {
      const res = await t.call(org.apiToken, 'GET', next);
      expect(res.status).toBe(200);
      expect(res.body.meta.httpStatus).toBe('200 - OK');
      expect(res.body.meta.requestId).toMatch(UUID_V4);
      pageSizes.push(res.body.result.elements.length);
      seen.push(...res.body.result.elements.map((e: { contactId: string }) => e.contactId));
      next = res.body.result.nextPage === null ? null : pathOf(res.body.result.nextPage);
      if (res.body.result.nextPage) {
        expect(res.body.result.nextPage).toMatch(/^http:\/\/localhost(:\d+)?\/API\/v3\/directories\//);
        expect(res.body.result.nextPage).toContain('pageSize=100');
      }
    }
    expect(pageSizes).toEqual([100, 100, 50]);
    expect(next).toBeNull();
    expect(new Set(seen).size).toBe(250);
  });

  it('defaults to pages of 100 and starts at offset 0', async () => {
    const res = await t.call(org.apiToken, 'GET', url);
    expect(res.body.result.elements).toHaveLength(100);
    const nextPage = new URL(res.body.result.nextPage);
    expect(nextPage.searchParams.get('offset')).toBe('100');
    const last = await t.call(org.apiToken, 'GET', `${url}?offset=240`);
    expect(last.body.result.elements).toHaveLength(10);
    expect(last.body.result.nextPage).toBeNull();
  });

  it('takes pageSize 10000, the maximum', async () => {
    const res = await t.call(org.apiToken, 'GET', `${url}?pageSize=10000`);
    expect(res.status).toBe(200);
    expect(res.body.result.elements).toHaveLength(250);
    expect(res.body.result.nextPage).toBeNull();
  });

  it.each(['0', '10001', '-1', 'abc'])('answers 400 naming pageSize for pageSize=%s', async (value) => {
    const res = await t.call(org.apiToken, 'GET', `${url}?pageSize=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.meta.httpStatus).toBe('400 - Bad Request');
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(res.body.meta.error.errorMessage).toContain('pageSize');
  });

  it('gives every element every field of spec 2.4, null where empty', async () => {
    const res = await t.call(org.apiToken, 'GET', `${url}?pageSize=10000`);
    for (const element of res.body.result.elements) {
      expect(Object.keys(element).sort()).toEqual(SPEC_2_4_FIELDS);
      expect(typeof element.unsubscribed).toBe('boolean');
    }
    const sparse = res.body.result.elements.find((e: { email: string }) => e.email === 'p0@example.com');
    expect(sparse).toMatchObject({
      firstName: null,
      lastName: null,
      phone: null,
      extRef: null,
      language: null,
    });
    const full = res.body.result.elements.find((e: { email: string }) => e.email === 'p1@example.com');
    expect(full).toMatchObject({
      firstName: 'F',
      lastName: 'L1',
      phone: '+1 555 0100',
      extRef: 'x1',
      language: 'en',
    });
    expect(full.contactId).toMatch(/^CID_[A-Za-z0-9]{15}$/);
  });

  it('answers 403 to an organisation without the target-audience variant', async () => {
    const plain = await t.newOrganization({ targetAudience: false });
    const plainList = await createDirectoryList(t, plain.apiToken, plain.directoryId);
    const res = await t.call(
      plain.apiToken,
      'GET',
      `/API/v3/directories/${plain.directoryId}/mailinglists/${plainList}/contacts`,
    );
    expect(res.status).toBe(403);
    expect(res.body.meta.error.errorCode).toBe('QMST_2.1');
  });
});
