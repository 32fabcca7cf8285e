/**
 * Issue 19 items 2 and 3, response imports: a file past the import limit is 413 and kept nowhere, and a
 * NUL in a cell fails that row alone instead of the whole job (PostgreSQL refused the batch, three times).
 * Both engines.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { exportText, importFile, postImport, startWorker } from './imports-helpers.js';

/** Lowered from 1 GiB so a test can go past it. */
const LIMIT = 64 * 1024;

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let dataDir: string;
let header: string;
let names: string[];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldwork-hostile-responses-'));
  t = await buildTestApp({
    clock: manualClock('2026-03-01T12:00:00Z'),
    config: { importMaxBytes: LIMIT, dataDir },
  });
  org = await t.newOrganization();
  worker = startWorker(t);
  header = await exportText(t, org.apiToken, await importSmallSurvey(t, org.apiToken), { format: 'csv' });
  names = (parse(header, { to: 1 }) as string[][])[0] as string[];
});
afterAll(async () => {
  await worker.stop();
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
const line = (cells: Record<string, string>) =>
  `${names.map((name) => quote(cells[name] ?? '')).join(',')}\r\n`;
const GOOD = { StartDate: '2025-12-31 23:00:00', EndDate: '2025-12-31 23:10:00', fruit: '20' };

async function responseCounts(surveyId: string) {
  return (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).body.result.responseCounts;
}

describe('response import files', () => {
  it('a NUL in a cell fails that row with the column named; the other rows are recorded', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const file =
      header +
      line(GOOD) +
      line({ ...GOOD, ExternalReference: 'ext\u0000ref' }) +
      line({ ...GOOD, panel: 'spr\u0000ing' }) +
      line(GOOD);
    const { result } = await importFile(t, org.apiToken, surveyId, file);
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'complete' });
    expect(result.result).toMatchObject({ added: 2, failed: 2 });
    expect(result.result.errors).toEqual([
      { row: 2, message: 'ExternalReference holds a NUL character (U+0000), which cannot be stored.' },
      { row: 3, message: 'panel holds a NUL character (U+0000), which cannot be stored.' },
    ]);
    expect(await responseCounts(surveyId)).toMatchObject({ generated: 2, auditable: 0 });
  });

  it('a file past the import limit: 413 FW_VAL_4, no import queued, no file kept', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const rows = Math.ceil(LIMIT / line(GOOD).length) + 1;
    // Every file under the data directory: scratch copies (jobs/) and the blob store (blobs/) alike.
    const files = async () =>
      (await readdir(dataDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile())
        .map((entry) => join(entry.parentPath, entry.name));
    const jobs = async () =>
      (
        await t.database.db
          .selectFrom('jobs')
          .select('id')
          .where('organization_id', '=', org.brandId)
          .where('kind', '=', 'responseImport')
          .execute()
      ).length;
    const [before, jobsBefore] = [await files(), await jobs()];
    const res = await postImport(t, org.apiToken, header + line(GOOD).repeat(rows), { surveyId });
    expect(res.status).toBe(413);
    expect(res.body.meta.error).toEqual({
      errorCode: 'FW_VAL_4',
      errorMessage: 'The import file is larger than 64 KiB.',
    });
    expect((await files()).filter((name) => !before.includes(name))).toEqual([]);
    expect(await jobs()).toBe(jobsBefore);
    expect(await responseCounts(surveyId)).toMatchObject({ generated: 0, auditable: 0 });
  });
});
