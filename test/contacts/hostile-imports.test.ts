/**
 * Issue 19 items 2–4, contact imports: an upload past the import limit however it is sent, text no
 * engine stores (a NUL, a lone surrogate) failing its row alone, a 5,000-deep JSON array, a stray quote,
 * and a list deleted before or while its import runs. Each on both engines.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { createDirectoryList, multipartFile, startImportWorker, waitForImport } from './contacts-helpers.js';

/** Lowered from 1 GiB so a test can go past it. */
const LIMIT = 256 * 1024;

let t: TestApp;
let org: { apiToken: string; directoryId: string; brandId: string };
let worker: JobWorker;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldwork-hostile-'));
  t = await buildTestApp({ config: { importMaxBytes: LIMIT, dataDir } });
  org = await t.newOrganization();
  worker = startImportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const importsOf = (listId: string) => `/API/v3/mailinglists/${listId}/contactimports`;
const csvHeaders = { 'content-type': 'text/csv' };

async function listCount(listId: string): Promise<number> {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/mailinglists/${listId}/contacts?pageSize=1`);
  expect(res.status).toBe(200);
  const list = await t.call(
    org.apiToken,
    'GET',
    `/API/v3/directories/${org.directoryId}/mailinglists/${listId}`,
  );
  return list.body.result.contactCount;
}

async function importJobs(): Promise<number> {
  const row = await t.database.db
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', org.brandId)
    .where('kind', '=', 'contactImport')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// Every file under the data directory: scratch copies (jobs/) and the blob store (blobs/) alike.
const jobFiles = async () =>
  (await readdir(dataDir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));

/** Asserts the call stored nothing: no new job, no file left in the job files directory, an empty list. */
async function expectNothingStored(listId: string, call: () => Promise<void>) {
  const [jobsBefore, filesBefore] = [await importJobs(), await jobFiles()];
  await call();
  expect(await importJobs()).toBe(jobsBefore);
  const left = (await jobFiles()).filter((name) => !filesBefore.includes(name));
  expect(left).toEqual([]);
  expect(await listCount(listId)).toBe(0);
}

/** A CSV of `bytes` bytes or a little more: a header, then contacts. */
function csvOf(bytes: number): string {
  const lines = ['email,firstName'];
  let size = lines[0]?.length ?? 0;
  for (let i = 0; size < bytes; i++) {
    const line = `big${i}@example.com,Big`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

describe('an import file past the limit', () => {
  it('a raw text/csv body: 413 FW_VAL_4, with or without a Content-Length, and nothing kept', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const csv = csvOf(LIMIT + 1024);
    await expectNothingStored(listId, async () => {
      const declared = await t.call(org.apiToken, 'POST', importsOf(listId), csv, csvHeaders);
      expect(declared.status).toBe(413);
      expect(declared.body.meta.error).toEqual({
        errorCode: 'FW_VAL_4',
        errorMessage: 'The import file is larger than 256 KiB.',
      });
      // A stream has no Content-Length: the bytes are counted as they are written to disk.
      const streamed = await t.call(
        org.apiToken,
        'POST',
        importsOf(listId),
        Readable.from([csv]),
        csvHeaders,
      );
      expect(streamed.status).toBe(413);
      expect(streamed.body.meta.error.errorCode).toBe('FW_VAL_4');
    });
    const under = await t.call(org.apiToken, 'POST', importsOf(listId), csvOf(LIMIT - 1024), csvHeaders);
    expect(under.status).toBe(200);
    await waitForImport(t, org.apiToken, `${importsOf(listId)}/${under.body.result.id}`);
  });

  it('a chunked body over a real connection gets the 413 answer before it is all sent', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const { port } = new URL(await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const chunk = Buffer.from(csvOf(16 * 1024));
    const most = 64 * LIMIT;
    let sent = 0;
    // At most 64 times the limit, then the body ends on its own.
    const body = Readable.from(
      (function* () {
        for (; sent < most; sent += chunk.length) yield chunk;
      })(),
    );
    const req = httpRequest({
      host: '127.0.0.1',
      port: Number(port),
      method: 'POST',
      path: importsOf(listId),
      headers: { ...csvHeaders, 'x-api-token': org.apiToken, 'transfer-encoding': 'chunked' },
    });
    try {
      const answer = await new Promise<{ status: number; text: string; connection: unknown }>(
        (resolve, reject) => {
          req.on('error', reject);
          req.on('response', (res) => {
            body.unpipe(req);
            let text = '';
            res.on('data', (data) => (text += data));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }),
            );
          });
          body.pipe(req);
        },
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.text).meta.error.errorCode).toBe('FW_VAL_4');
      // The rest of the body is never read, so the connection cannot carry another request.
      expect(answer.connection).toBe('close');
      // The server stopped reading at the limit: the client could not push the whole body through.
      expect(sent).toBeLessThan(most);
    } finally {
      body.destroy();
      req.destroy();
    }
    expect(await listCount(listId)).toBe(0);
  });

  it('a multipart file: 413 FW_VAL_4 at the same limit, nothing kept', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const upload = multipartFile('big.csv', csvOf(LIMIT + 1024), 'text/csv');
    await expectNothingStored(listId, async () => {
      const res = await t.call(org.apiToken, 'POST', importsOf(listId), upload.body, upload.headers);
      expect(res.status).toBe(413);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_4');
    });
  });
});

describe('text no engine stores', () => {
  it('a NUL or a lone surrogate fails its row alone; the other 2,496 of a JSON file are imported', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const contacts: Record<string, unknown>[] = Array.from({ length: 2500 }, (_, i) => ({
      email: `json${i + 1}@example.com`,
      firstName: `Json${i + 1}`,
    }));
    const bad: [number, Record<string, unknown>, string][] = [
      [5, { lastName: 'Lone \ud800 surrogate' }, 'lastName holds an unpaired surrogate (U+D800)'],
      [7, { embeddedData: { plan: 'gold\u0000' } }, 'embeddedData.plan holds a NUL character (U+0000)'],
      [9, { embeddedData: { 'pl\u0000an': 'gold' } }, 'an embeddedData field name holds a NUL character'],
      [2200, { firstName: 'Nul\u0000here' }, 'firstName holds a NUL character (U+0000)'],
    ];
    for (const [row, fields] of bad) Object.assign(contacts[row - 1] as object, fields);
    // JSON.stringify writes the lone surrogate as the escape \ud800, the one way a UTF-8 file can hold it.
    const text = JSON.stringify(contacts);
    expect(text).toContain('Lone \\ud800 surrogate');
    const upload = multipartFile('contacts.json', text, 'application/json');
    const started = await t.call(org.apiToken, 'POST', importsOf(listId), upload.body, upload.headers);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const done = await waitForImport(t, org.apiToken, `${importsOf(listId)}/${started.body.result.id}`);
    expect(done.body.result).toMatchObject({
      status: 'complete',
      errorMessage: null,
      contacts: { count: { added: 2496, updated: 0, failed: 4 } },
    });
    const failures = done.body.result.contacts.failures as { row: number; reason: string }[];
    expect(failures.map((f) => f.row)).toEqual(bad.map(([row]) => row));
    for (const [i, failure] of failures.entries()) expect(failure.reason).toContain(bad[i]?.[2]);
    expect(await listCount(listId)).toBe(2496);
    for (const [row] of bad) {
      const found = await t.call(
        org.apiToken,
        'POST',
        `/API/v3/directories/${org.directoryId}/contacts/search`,
        {
          email: `json${row}@example.com`,
        },
      );
      expect(found.body.result.elements).toEqual([]);
    }
  });

  it('a NUL in a CSV cell fails that row; raw body and multipart alike', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const csv =
      'email,firstName,Team\nnul1@example.com,A\u0000B,Red\nok1@example.com,Ok,Blue\nnul2@example.com,C,Gr\u0000een\n';
    const raw = await t.call(org.apiToken, 'POST', importsOf(listId), csv, csvHeaders);
    expect(raw.status).toBe(200);
    const rawDone = await waitForImport(t, org.apiToken, `${importsOf(listId)}/${raw.body.result.id}`);
    expect(rawDone.body.result.status).toBe('complete');
    expect(rawDone.body.result.contacts.count).toEqual({ added: 1, updated: 0, failed: 2 });
    expect(rawDone.body.result.contacts.failures).toEqual([
      { row: 1, reason: 'firstName holds a NUL character (U+0000), which cannot be stored' },
      { row: 3, reason: 'embeddedData.Team holds a NUL character (U+0000), which cannot be stored' },
    ]);
    const upload = multipartFile('contacts.csv', csv, 'text/csv');
    const file = await t.call(org.apiToken, 'POST', importsOf(listId), upload.body, upload.headers);
    const fileDone = await waitForImport(t, org.apiToken, `${importsOf(listId)}/${file.body.result.id}`);
    expect(fileDone.body.result.contacts.count).toEqual({ added: 0, updated: 1, failed: 2 });
    expect(await listCount(listId)).toBe(1);
  });
});

describe('files that are not contact files', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const postJson = (listId: string, json: string) =>
    t.call(org.apiToken, 'POST', importsOf(listId), json, { 'content-type': 'application/json' });

  it.each([
    ['a 5,000-deep array', deep(5000), /Contact 1 is not a JSON object/],
    [
      'a contact holding a 5,000-deep array',
      `[{"email":"d@example.com","embeddedData":{"x":${deep(5000)}}}]`,
      /Contact 1 nests/,
    ],
    [
      '{contacts} holding one',
      `{"contacts":[{"email":"d@example.com","x":${deep(5000)}}]}`,
      /Contact 1 nests/,
    ],
    [
      'a contact nesting 20 levels',
      `[{"email":"d@example.com","x":${deep(20)}}]`,
      /Contact 1 nests arrays or objects more than 8/,
    ],
  ])('a file with %s: 400 FW_CON_3 naming the contact, nothing stored', async (_what, json, message) => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    await expectNothingStored(listId, async () => {
      const upload = multipartFile('deep.json', json, 'application/json');
      const file = await t.call(org.apiToken, 'POST', importsOf(listId), upload.body, upload.headers);
      expect(file.status, JSON.stringify(file.body)).toBe(400);
      expect(file.body.meta.error.errorCode).toBe('FW_CON_3');
      expect(file.body.meta.error.errorMessage).toMatch(message);
    });
  });

  it('the same as a JSON body: 400, never a crash, nothing stored', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    await expectNothingStored(listId, async () => {
      // Within the HTTP layer's own depth limit the import's check answers, naming the contact.
      const twenty = await postJson(
        listId,
        `[{"email":"d@example.com"},{"email":"e@example.com","x":${deep(20)}}]`,
      );
      expect(twenty.status).toBe(400);
      expect(twenty.body.meta.error).toMatchObject({
        errorCode: 'FW_CON_3',
        errorMessage: expect.stringMatching(/Contact 2 nests/),
      });
      for (const json of [deep(5000), `[{"email":"d@example.com","embeddedData":{"x":${deep(5000)}}}]`]) {
        const res = await postJson(listId, json);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        // The HTTP layer refuses a body nested past its limit (FW_VAL_1) before the import sees it.
        expect(['FW_CON_3', 'FW_VAL_1']).toContain(res.body.meta.error.errorCode);
      }
    });
  });

  it.each([
    ['a quote inside a cell', 'email,firstName\na@example.com,Ann\nb@example.com,Bo"b\n', /line 3/],
    ['text after a closing quote', 'email,firstName\na@example.com,"Ann"x\n', /line 2/],
    ['a quote left open', 'email,firstName\na@example.com,Ann\n"b@example.com,Bob\n', /line 3/],
  ])('a CSV with %s: 400 FW_CON_3 naming the line, nothing stored', async (_what, csv, line) => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    await expectNothingStored(listId, async () => {
      const raw = await t.call(org.apiToken, 'POST', importsOf(listId), csv, csvHeaders);
      expect(raw.status, JSON.stringify(raw.body)).toBe(400);
      expect(raw.body.meta.error.errorCode).toBe('FW_CON_3');
      expect(raw.body.meta.error.errorMessage).toMatch(line);
      const upload = multipartFile('quotes.csv', csv, 'text/csv');
      const file = await t.call(org.apiToken, 'POST', importsOf(listId), upload.body, upload.headers);
      expect(file.status).toBe(400);
      expect(file.body.meta.error.errorCode).toBe('FW_CON_3');
    });
  });
});

describe('a deleted list', () => {
  it('takes no import: 404 PACC_6 for a JSON body, a raw CSV and a file, on both paths', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    expect((await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${listId}`)).status).toBe(200);
    const jobsBefore = await importJobs();
    const upload = multipartFile('c.csv', 'email\na@example.com\n', 'text/csv');
    for (const base of [
      importsOf(listId),
      `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contactimports`,
    ]) {
      const answers = [
        await t.call(org.apiToken, 'POST', base, [{ email: 'a@example.com' }]),
        await t.call(org.apiToken, 'POST', base, 'email\na@example.com\n', csvHeaders),
        await t.call(org.apiToken, 'POST', base, upload.body, upload.headers),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(404);
        expect(answer.body.meta.error.errorCode).toBe('PACC_6');
      }
    }
    expect(await importJobs()).toBe(jobsBefore);
  });

  it('deleted after its import was queued: the import fails with the reason, readable on both paths', async () => {
    await worker.stop();
    try {
      const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
      const started = await t.call(org.apiToken, 'POST', importsOf(listId), [{ email: 'gone@example.com' }]);
      expect(started.status).toBe(200);
      expect((await t.call(org.apiToken, 'DELETE', `/API/v3/mailinglists/${listId}`)).status).toBe(200);
      worker.start();
      const id = started.body.result.id as string;
      const legacy = await waitForImport(t, org.apiToken, `${importsOf(listId)}/${id}`);
      expect(legacy.status).toBe(200);
      expect(legacy.body.result).toMatchObject({
        status: 'failed',
        errorMessage: `The mailing list ${listId} was deleted; nothing more was imported.`,
        contacts: { count: { added: 0, updated: 0, failed: 0 } },
      });
      const directory = await t.call(
        org.apiToken,
        'GET',
        `/API/v3/directories/${org.directoryId}/mailinglists/${listId}/contactimports/${id}`,
      );
      expect(directory.body.result.status).toBe('failed');
      const unknown = await t.call(org.apiToken, 'GET', `${importsOf(listId)}/PGRS_000000000000000`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.meta.error.errorCode).toBe('PACC_6');
      const search = await t.call(
        org.apiToken,
        'POST',
        `/API/v3/directories/${org.directoryId}/contacts/search`,
        {
          email: 'gone@example.com',
        },
      );
      expect(search.body.result.elements).toEqual([]);
    } finally {
      worker.start();
    }
  });
});
