import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { createDirectoryList, multipartFile, startImportWorker, waitForImport } from './contacts-helpers.js';

let t: TestApp;
let org: { apiToken: string; directoryId: string };
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization({ targetAudience: true });
  worker = startImportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** 10,000 rows; rows 17, 5000 and 9999 break a rule (bad email, bad language, no email nor extRef). */
function tenThousandRowCsv(): string {
  const lines = ['Email,First Name,Last Name,ExternalDataReference,Language,Department'];
  for (let row = 1; row <= 10_000; row++) {
    if (row === 17) lines.push('not-an-email,Bad,Email,,en,Sales');
    else if (row === 5000) lines.push(`row${row}@example.com,Bad,Language,,english!,Sales`);
    else if (row === 9999) lines.push(',No,Identity,,en,Sales');
    else
      lines.push(
        `row${row}@example.com,First${row},Last${row},${row % 3 === 0 ? `ext${row}` : ''},en,Dept${row % 7}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

async function directoryCount(): Promise<number> {
  const res = await t.call(org.apiToken, 'GET', '/API/v3/directories');
  return res.body.result.elements.find((d: { directoryId: string }) => d.directoryId === org.directoryId)
    .contactCount;
}

async function listCount(listId: string): Promise<number> {
  const res = await t.call(
    org.apiToken,
    'GET',
    `/API/v3/directories/${org.directoryId}/mailinglists/${listId}`,
  );
  return res.body.result.contactCount;
}

describe('contact imports', () => {
  it('imports a 10,000-row CSV with 3 bad rows: 9,997 added, 3 failed with reasons; again adds 0', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const base = `/API/v3/mailinglists/${listId}/contactimports`;
    const csv = tenThousandRowCsv();
    const upload = multipartFile('contacts.csv', csv, 'text/csv');
    const started = await t.call(org.apiToken, 'POST', base, upload.body, upload.headers);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result.id).toMatch(/^PGRS_[A-Za-z0-9]{15}$/);
    const first = await waitForImport(t, org.apiToken, `${base}/${started.body.result.id}`);
    expect(first.body.result).toMatchObject({
      status: 'complete',
      percentComplete: 100,
      contacts: { count: { added: 9997, updated: 0, failed: 3 } },
    });
    const failures = first.body.result.contacts.failures;
    expect(failures.map((f: { row: number }) => f.row)).toEqual([17, 5000, 9999]);
    expect(failures[0].reason).toContain('email');
    expect(failures[1].reason).toContain('language');
    expect(failures[2].reason).toContain('email or an extRef');
    expect(await listCount(listId)).toBe(9997);

    const again = multipartFile('contacts.csv', csv, 'text/csv');
    const restarted = await t.call(org.apiToken, 'POST', base, again.body, again.headers);
    const second = await waitForImport(t, org.apiToken, `${base}/${restarted.body.result.id}`);
    expect(second.body.result.contacts.count).toEqual({ added: 0, updated: 9997, failed: 3 });
    expect(await listCount(listId)).toBe(9997);
  });

  it('keeps CSV extra columns as embedded data and matches on extRef before email', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const base = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contactimports`;
    const csv = 'extRef,email,firstName,Team\nE-1,one@example.com,One,Blue\nE-2,two@example.com,Two,\n';
    const started = await t.call(org.apiToken, 'POST', base, csv, { 'content-type': 'text/csv' });
    expect(started.status).toBe(200);
    await waitForImport(t, org.apiToken, `${base}/${started.body.result.id}`);
    // Same extRef, new email: the same contact, its email changed.
    const update = 'extRef,email,Team\nE-1,uno@example.com,Green\n';
    const again = await t.call(org.apiToken, 'POST', base, update, { 'content-type': 'text/csv' });
    const done = await waitForImport(t, org.apiToken, `${base}/${again.body.result.id}`);
    expect(done.body.result.contacts.count).toEqual({ added: 0, updated: 1, failed: 0 });
    const search = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/directories/${org.directoryId}/contacts/search`,
      {
        extRef: 'E-1',
      },
    );
    expect(search.body.result.elements).toHaveLength(1);
    expect(search.body.result.elements[0]).toMatchObject({
      email: 'uno@example.com',
      firstName: 'One',
      embeddedData: { Team: 'Green' },
    });
  });

  it('takes a JSON array body, a {contacts} body and an uploaded JSON file', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const base = `/API/v3/mailinglists/${listId}/contactimports`;
    const array = await t.call(org.apiToken, 'POST', base, [
      { email: 'j1@example.com', embeddedData: { plan: 'gold' } },
      { email: 'j2@example.com', embeddedData: { plan: ['gold'] } },
      { email: 'j4@example.com', embeddedData: { seats: 3, paid: true } },
    ]);
    const arrayDone = await waitForImport(t, org.apiToken, `${base}/${array.body.result.id}`);
    expect(arrayDone.body.result.contacts.count).toEqual({ added: 2, updated: 0, failed: 1 });
    expect(arrayDone.body.result.contacts.failures[0]).toMatchObject({ row: 2 });
    expect(arrayDone.body.result.contacts.failures[0].reason).toContain('embeddedData');

    const wrapped = await t.call(org.apiToken, 'POST', base, {
      contacts: [{ email: 'J1@example.com', firstName: 'J' }],
    });
    const wrappedDone = await waitForImport(t, org.apiToken, `${base}/${wrapped.body.result.id}`);
    expect(wrappedDone.body.result.contacts.count).toEqual({ added: 0, updated: 1, failed: 0 });

    const file = multipartFile(
      'c.json',
      JSON.stringify({ contacts: [{ email: 'j3@example.com' }] }),
      'application/json',
    );
    const uploaded = await t.call(org.apiToken, 'POST', base, file.body, file.headers);
    const uploadedDone = await waitForImport(t, org.apiToken, `${base}/${uploaded.body.result.id}`);
    expect(uploadedDone.body.result.contacts.count).toEqual({ added: 1, updated: 0, failed: 0 });
    expect(await listCount(listId)).toBe(3);
    const j4 = await t.call(org.apiToken, 'POST', `/API/v3/directories/${org.directoryId}/contacts/search`, {
      email: 'j4@example.com',
    });
    expect(j4.body.result.elements[0].embeddedData).toEqual({ seats: '3', paid: 'true' });
  });

  it.each([
    ['an unclosed quote', 'email,firstName\na@example.com,Ann\n"b@example.com,Bob\n', 'csv'],
    ['a row with too many columns', 'email,firstName\na@example.com,Ann\nb@example.com,Bob,extra\n', 'csv'],
    ['no email or extRef column', 'firstName,lastName\nAnn,Lee\n', 'csv'],
    ['a header only', 'email,firstName\n', 'csv'],
    ['truncated JSON', '[{"email":"a@example.com"},{"email":', 'json'],
    ['a JSON element that is not an object', '[{"email":"a@example.com"}, 7]', 'json'],
    ['JSON that is not an array', '"contacts"', 'json'],
  ])('refuses a file with %s before writing anything', async (_what, content, format) => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const before = await directoryCount();
    const upload = multipartFile(
      `bad.${format}`,
      content,
      format === 'csv' ? 'text/csv' : 'application/json',
    );
    const res = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/mailinglists/${listId}/contactimports`,
      upload.body,
      upload.headers,
    );
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_CON_3');
    expect(await directoryCount()).toBe(before);
    expect(await listCount(listId)).toBe(0);
  });

  it('names the line of a malformed CSV', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const csv = 'email,firstName\na@example.com,Ann\nb@example.com\n';
    const res = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${listId}/contactimports`, csv, {
      'content-type': 'text/csv',
    });
    expect(res.status).toBe(400);
    expect(res.body.meta.error.errorMessage).toMatch(/line 3/i);
  });

  it('refuses a file that is neither CSV nor JSON, and a missing file part', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const upload = multipartFile('contacts.xlsx', 'PK...', 'application/vnd.ms-excel');
    const res = await t.call(
      org.apiToken,
      'POST',
      `/API/v3/mailinglists/${listId}/contactimports`,
      upload.body,
      upload.headers,
    );
    expect(res.status).toBe(415);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_3');
    const notAList = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${listId}/contactimports`, {
      people: [],
    });
    expect(notAList.status).toBe(400);
  });

  it('answers a file part sent without a file name in the envelope (found by the fuzz test: it answered 500)', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const boundary = 'nofilename';
    const part = (type: string, content: string) =>
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`,
      );
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
    const url = `/API/v3/mailinglists/${listId}/contactimports`;
    const unknown = await t.call(
      org.apiToken,
      'POST',
      url,
      part('application/octet-stream', '\u0000'),
      headers,
    );
    expect(unknown.status).toBe(415);
    expect(unknown.body.meta.error.errorCode).toBe('FW_VAL_3');
    // Without a file name, multipart reads a text part as a form field: no file, said so.
    const field = await t.call(org.apiToken, 'POST', url, part('text/csv', 'firstName\nAda'), headers);
    expect(field.status).toBe(400);
    expect(field.body.meta.error.errorMessage).toContain('file is required');
  });

  it('answers 404 for an unknown import and for an import of another list', async () => {
    const listA = await createDirectoryList(t, org.apiToken, org.directoryId);
    const listB = await createDirectoryList(t, org.apiToken, org.directoryId);
    const started = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${listA}/contactimports`, [
      { email: 'x@example.com' },
    ]);
    const id = started.body.result.id;
    const wrongList = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${listB}/contactimports/${id}`);
    expect(wrongList.status).toBe(404);
    expect(wrongList.body.meta.error.errorCode).toBe('FW_CON_4');
    const unknown = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/mailinglists/${listA}/contactimports/PGRS_000000000000000`,
    );
    expect(unknown.status).toBe(404);
    await waitForImport(t, org.apiToken, `/API/v3/mailinglists/${listA}/contactimports/${id}`);
  });

  it('fails the job, not the server, when the list is deleted before it runs', async () => {
    await worker.stop();
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const started = await t.call(org.apiToken, 'POST', `/API/v3/mailinglists/${listId}/contactimports`, [
      { email: 'gone@example.com' },
    ]);
    const id = started.body.result.id;
    // The job reads its list through the directory path too; delete the list, then let it run.
    const view = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${listId}/contactimports/${id}`);
    expect(view.body.result.status).toBe('inProgress');
    await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${listId}`);
    worker.start();
    const row = await waitForJob(id);
    expect(row.status).toBe('failed');
  });
});

async function waitForJob(id: string) {
  for (let i = 0; i < 400; i++) {
    const row = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (row.status !== 'pending') return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} did not end`);
}
