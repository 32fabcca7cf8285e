/**
 * Issue 19 item 8: a running contact import must not starve requests. On SQLite nothing the job does
 * waits for I/O but reading the next chunk of the file, so without a turn of the event loop between
 * batches a request waits behind every batch of a 256 KB chunk (about eight). Measured structurally:
 * how many rows the import wrote between sending a request over a real connection and its answer.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { BATCH_ROWS } from '../../src/modules/contacts/contacts.store.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { createDirectoryList, startImportWorker } from './contacts-helpers.js';

const ROWS = 50_000;
/** Requests measured while the import runs; each one is a sample. */
const SAMPLES = 8;

let t: TestApp;
let org: { apiToken: string; directoryId: string };
let worker: JobWorker | undefined;
let port: number;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  port = Number(new URL(await t.app.listen({ port: 0, host: '127.0.0.1' })).port);
});
afterAll(async () => {
  await worker?.stop();
  await t.close();
});

/** Rows the import has committed, and whether it still runs, read from its job row. */
async function jobState(id: string): Promise<{ rowsDone: number; pending: boolean }> {
  const row = await t.database.db
    .selectFrom('jobs')
    .select(['status', 'result'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const result = JSON.parse(row.result ?? '{}') as { rowsDone?: number };
  return { rowsDone: result.rowsDone ?? 0, pending: row.status === 'pending' };
}

/** A GET over a real connection, so the server reads it only when the event loop polls its sockets. */
function get(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { 'x-api-token': org.apiToken } });
    req.on('error', reject);
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.end();
  });
}

function contactsCsv(): string {
  const lines = ['email,firstName,Team'];
  for (let row = 1; row <= ROWS; row++) lines.push(`loop${row}@example.com,Loop${row},T${row % 9}`);
  return `${lines.join('\n')}\n`;
}

describe('a running contact import', () => {
  it('leaves requests waiting for at most a batch or two, and they complete before it ends', async () => {
    const listId = await createDirectoryList(t, org.apiToken, org.directoryId);
    const base = `/API/v3/directories/${org.directoryId}/mailinglists/${listId}`;
    const started = await t.call(org.apiToken, 'POST', `${base}/contactimports`, contactsCsv(), {
      'content-type': 'text/csv',
    });
    expect(started.status).toBe(200);
    const id = started.body.result.id as string;
    worker = startImportWorker(t);
    // Until the first batch committed: from then on the job is writing.
    for (let i = 0; i < 2000 && (await jobState(id)).rowsDone === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 5));

    const samples: { path: string; status: number; written: number; pending: boolean }[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const path = i % 2 === 0 ? '/health' : base;
      const before = await jobState(id);
      if (!before.pending) break;
      const status = await get(path);
      const after = await jobState(id);
      samples.push({ path, status, written: after.rowsDone - before.rowsDone, pending: after.pending });
    }
    // Every request was answered while the import was still running…
    expect(samples, JSON.stringify(samples)).toHaveLength(SAMPLES);
    for (const sample of samples)
      expect(sample, JSON.stringify(samples)).toMatchObject({ status: 200, pending: true });
    // …and waited behind a few batches at most (the one being written, perhaps the next): without a turn of
    // the event loop between batches, 5,000 to 22,000 rows.
    const most = Math.max(...samples.map((s) => s.written));
    expect(most, JSON.stringify(samples)).toBeLessThanOrEqual(3 * BATCH_ROWS);
  }, 120_000);
});
