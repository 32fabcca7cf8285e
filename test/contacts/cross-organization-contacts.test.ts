import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { addListContact, createDirectoryList, startImportWorker, waitForImport } from './contacts-helpers.js';

/**
 * A token of organisation B can never read or change organisation A's directories, lists, contacts,
 * imports or samples. Every route of the contacts family is tried with B's token against A's ids (and
 * with B's own directory or list in the path around A's ids); each must answer 404, and A's data must be
 * unchanged afterwards. Both organisations have the target-audience variant, so 403 is never the reason.
 */
let t: TestApp;
let worker: JobWorker;
type Org = { apiToken: string; directoryId: string; userId: string };
let a: Org;
let b: Org;
const A: Record<string, string> = {};
const B: Record<string, string> = {};

beforeAll(async () => {
  t = await buildTestApp();
  worker = startImportWorker(t);
  a = await t.newOrganization({ targetAudience: true });
  b = await t.newOrganization({ targetAudience: true });
  A.dir = a.directoryId;
  A.list = await createDirectoryList(t, a.apiToken, a.directoryId, 'A list');
  A.contact = (
    await addListContact(t, a.apiToken, a.directoryId, A.list, { email: 'a@a.example', extRef: 'A-1' })
  ).id;
  A.legacy = (await t.call(a.apiToken, 'POST', '/API/v3/mailinglists', { name: 'A legacy' })).body.result.id;
  A.member = (
    await t.call(a.apiToken, 'POST', `/API/v3/mailinglists/${A.legacy}/contacts`, { email: 'm@a.example' })
  ).body.result.id;
  A.import = (
    await t.call(a.apiToken, 'POST', `/API/v3/mailinglists/${A.legacy}/contactimports`, [
      { email: 'i@a.example' },
    ])
  ).body.result.id;
  await waitForImport(t, a.apiToken, `/API/v3/mailinglists/${A.legacy}/contactimports/${A.import}`);
  A.sample = (
    await t.call(a.apiToken, 'POST', `/API/v3/mailinglists/${A.legacy}/samples`, { size: 1 })
  ).body.result.id;
  B.dir = b.directoryId;
  B.list = await createDirectoryList(t, b.apiToken, b.directoryId, 'B list');
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const contact = { email: 'hijack@b.example', firstName: 'Hijacked' };
const dl = () => `/API/v3/directories/${A.dir}/mailinglists/${A.list}`;
const ml = () => `/API/v3/mailinglists/${A.legacy}`;

describe("a token of organisation B against organisation A's contacts", () => {
  const attempts: [string, string, () => string, (() => unknown)?][] = [
    ['POST', 'directory contacts', () => `/API/v3/directories/${A.dir}/contacts`, () => contact],
    ['GET', 'directory contacts', () => `/API/v3/directories/${A.dir}/contacts`],
    [
      'GET',
      'directory contacts (skipToken)',
      () => `/API/v3/directories/${A.dir}/contacts?useNewPaginationScheme=true`,
    ],
    ['GET', 'directory contact history', () => `/API/v3/directories/${A.dir}/contacts/${A.contact}/history`],
    [
      'GET',
      "A's contact history through B's directory",
      () => `/API/v3/directories/${B.dir}/contacts/${A.contact}/history`,
    ],
    ['GET', 'directory contact', () => `/API/v3/directories/${A.dir}/contacts/${A.contact}`],
    ['PUT', 'directory contact', () => `/API/v3/directories/${A.dir}/contacts/${A.contact}`, () => contact],
    ['DELETE', 'directory contact', () => `/API/v3/directories/${A.dir}/contacts/${A.contact}`],
    ['GET', "A's contact through B's directory", () => `/API/v3/directories/${B.dir}/contacts/${A.contact}`],
    [
      'PUT',
      "A's contact through B's directory",
      () => `/API/v3/directories/${B.dir}/contacts/${A.contact}`,
      () => contact,
    ],
    ['POST', 'contact search', () => `/API/v3/directories/${A.dir}/contacts/search`, () => ({})],
    ['GET', 'directory lists', () => `/API/v3/directories/${A.dir}/mailinglists`],
    [
      'POST',
      'directory lists',
      () => `/API/v3/directories/${A.dir}/mailinglists`,
      () => ({ name: 'B in A' }),
    ],
    ['GET', 'directory list', dl],
    ['PUT', 'directory list', dl, () => ({ name: 'Hijacked' })],
    ['DELETE', 'directory list', dl],
    ['GET', "A's list through B's directory", () => `/API/v3/directories/${B.dir}/mailinglists/${A.list}`],
    ['GET', 'list contacts', () => `${dl()}/contacts`],
    ['POST', 'list contacts', () => `${dl()}/contacts`, () => contact],
    ['GET', 'list contact', () => `${dl()}/contacts/${A.contact}`],
    ['PUT', 'list contact', () => `${dl()}/contacts/${A.contact}`, () => ({ unsubscribed: true })],
    ['DELETE', 'list contact', () => `${dl()}/contacts/${A.contact}`],
    [
      'GET',
      "A's contact through B's list",
      () => `/API/v3/directories/${B.dir}/mailinglists/${B.list}/contacts/${A.contact}`,
    ],
    [
      'PUT',
      "A's contact through B's list",
      () => `/API/v3/directories/${B.dir}/mailinglists/${B.list}/contacts/${A.contact}`,
      () => contact,
    ],
    [
      'DELETE',
      "A's contact through B's list",
      () => `/API/v3/directories/${B.dir}/mailinglists/${B.list}/contacts/${A.contact}`,
    ],
    ['GET', 'opted-out contacts', () => `${dl()}/optedOutContacts`],
    ['GET', 'bounced contacts', () => `${dl()}/bouncedContacts`],
    ['POST', 'directory list import', () => `${dl()}/contactimports`, () => [contact]],
    ['GET', 'legacy list', ml],
    ['PUT', 'legacy list', ml, () => ({ name: 'Hijacked' })],
    ['DELETE', 'legacy list', ml],
    ['GET', 'legacy members', () => `${ml()}/contacts`],
    ['POST', 'legacy members', () => `${ml()}/contacts`, () => contact],
    ['GET', 'legacy member', () => `${ml()}/contacts/${A.member}`],
    ['PUT', 'legacy member', () => `${ml()}/contacts/${A.member}`, () => contact],
    ['DELETE', 'legacy member', () => `${ml()}/contacts/${A.member}`],
    ['POST', 'legacy import', () => `${ml()}/contactimports`, () => [contact]],
    ['GET', 'legacy import', () => `${ml()}/contactimports/${A.import}`],
    [
      'GET',
      "A's import through B's list",
      () => `/API/v3/directories/${B.dir}/mailinglists/${B.list}/contactimports/${A.import}`,
    ],
    ['GET', 'samples', () => `${ml()}/samples`],
    ['POST', 'samples', () => `${ml()}/samples`, () => ({ size: 1 })],
    ['GET', 'sample', () => `${ml()}/samples/${A.sample}`],
    ['GET', 'sample contacts', () => `${ml()}/samples/${A.sample}/contacts`],
  ];

  it.each(attempts)('%s %s answers 404', async (method, _what, url, body) => {
    const res = await t.call(b.apiToken, method, url(), body?.());
    expect(res.status, JSON.stringify(res.body)).toBe(404);
    expect(res.body.meta.error.errorMessage).toBeTruthy();
  });

  it("lists none of A's directories, lists or contacts", async () => {
    const directories = await t.call(b.apiToken, 'GET', '/API/v3/directories');
    expect(directories.body.result.elements.map((d: { directoryId: string }) => d.directoryId)).toEqual([
      B.dir,
    ]);
    const legacy = await t.call(b.apiToken, 'GET', '/API/v3/mailinglists');
    expect(legacy.body.result.elements.map((l: { id: string }) => l.id)).toEqual([B.list]);
    const search = await t.call(b.apiToken, 'POST', `/API/v3/directories/${B.dir}/contacts/search`, {
      extRef: 'A-1',
    });
    expect(search.body.result.elements).toEqual([]);
    const listed = await t.call(b.apiToken, 'GET', `/API/v3/directories/${B.dir}/contacts`);
    expect(listed.body.result.elements).toEqual([]);
  });

  it("leaves A's data exactly as it was", async () => {
    const read = await t.call(a.apiToken, 'GET', `${dl()}/contacts/${A.contact}`);
    expect(read.body.result).toMatchObject({ email: 'a@a.example', firstName: 'Ada', unsubscribed: false });
    const list = await t.call(a.apiToken, 'GET', dl());
    expect(list.body.result).toMatchObject({ name: 'A list', contactCount: 1 });
    const legacy = await t.call(a.apiToken, 'GET', ml());
    expect(legacy.body.result.name).toBe('A legacy');
    expect((await t.call(a.apiToken, 'GET', `${ml()}/contacts/${A.member}`)).status).toBe(200);
    const directories = await t.call(a.apiToken, 'GET', '/API/v3/directories');
    expect(directories.body.result.elements[0].contactCount).toBe(3);
    const samples = await t.call(a.apiToken, 'GET', `${ml()}/samples`);
    expect(samples.body.result.elements).toHaveLength(1);
  });
});
