/**
 * A response import's reader (import-thread.ts, decision 0017) in both places it runs: on a thread of its
 * own (beside SQLite) and on the event loop (beside PostgreSQL). Either way the job gets the same count,
 * the same batches laid out on the survey it gives, and the same refusal of a file that cannot be read.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromJson } from '../../src/db/json.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import {
  countImportRecords,
  isFileGone,
  UnreadableFileError,
} from '../../src/modules/responseimports/import-file.js';
import type { ImportReaderData } from '../../src/modules/responseimports/import-reader.js';
import {
  countPlace,
  openImportReader,
  type ReaderPlace,
  readerPlace,
} from '../../src/modules/responseimports/import-thread.js';
import type { QsfDocument } from '../../src/modules/surveys/definition/qsf.js';
import {
  type SurveyForResponses,
  surveyForResponses,
} from '../../src/modules/surveys/survey-responses.service.js';
import { findSurveyInScope } from '../../src/modules/surveys/surveys.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { exportText, startWorker } from './imports-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let dir: string;
let survey: SurveyForResponses;
let data: Omit<ImportReaderData, 'path'>;
let header: string;
let names: string[];
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  dir = await mkdtemp(join(tmpdir(), 'fw-import-reader-'));
  // The export that gives the header runs as a job.
  worker = startWorker(t);
  const surveyId = await importSmallSurvey(t, org.apiToken);
  header = await exportText(t, org.apiToken, surveyId, { format: 'csv' });
  names = (parse(header, { to: 1 }) as string[][])[0] as string[];
  const scope = { organizationId: org.brandId };
  const row = await findSurveyInScope(t.database.db, scope, surveyId);
  survey = (await surveyForResponses(t.database.db, scope, surveyId)) as SurveyForResponses;
  data = {
    format: 'csv',
    payload: { surveyId, decimalSeparator: '.' },
    scope,
    doc: fromJson<QsfDocument>(row?.definition ?? '{}'),
    headerRows: parse(header) as string[][],
    resumeAfter: 1,
    batchRows: 2,
  };
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await worker.stop();
  await t.close();
});

/** A data row of the csv layout from cells named by their row-1 column name (`extra`: one field too many). */
function line(cells: Record<string, string>, extra = false): string {
  return `${[...names.map((name) => cells[name] ?? ''), ...(extra ? ['x'] : [])].join(',')}\r\n`;
}

const row = (n: number) => ({
  ResponseId: `R_readerTestR${String(n).padStart(4, '0')}`,
  StartDate: '2025-12-31 23:00:00',
  EndDate: '2025-12-31 23:10:00',
  fruit: '20',
});

/** Reads the file to its end in `place`: the thread it ran on, the count, and each batch as the job gets it. */
async function readAll(path: string, place: ReaderPlace) {
  const reader = openImportReader({ ...data, path }, place);
  try {
    const rowsTotal = await reader.rowsTotal;
    const batches = [];
    const now = new Date('2026-03-01T12:00:00Z');
    for (let batch = await reader.next(now, survey); batch; batch = await reader.next(now, survey)) {
      expect(batch.survey).toBe(survey);
      expect(batch.now).toBe(now);
      batches.push({
        records: batch.records.map((record) => record.row),
        rows: batch.rows.map((prepared) =>
          'reason' in prepared
            ? prepared
            : { row: prepared.row, fileId: prepared.fileId, values: fromJson(prepared.response.row.values) },
        ),
      });
    }
    return { threadId: reader.threadId, rowsTotal, batches };
  } finally {
    await reader.close();
  }
}

describe('the response import reader', () => {
  it('hands the job the same count and batches on a thread of its own as on the event loop', async () => {
    const path = join(dir, 'rows.csv');
    await writeFile(
      path,
      header + line(row(1)) + line(row(2)) + line(row(3), true) + line(row(4)) + line(row(5)),
    );
    const onThread = await readAll(path, 'thread');
    const here = await readAll(path, 'event loop');
    expect(onThread.threadId).not.toBe(threadId);
    expect(here.threadId).toBe(threadId);
    expect(onThread.rowsTotal).toBe(5);
    // Row 1 is skipped (resumeAfter); two rows a batch; row 3 fails alone with its reason.
    expect(onThread.batches.map((batch) => batch.records)).toEqual([
      [2, 3],
      [4, 5],
    ]);
    const [second, third] = onThread.batches[0]?.rows ?? [];
    expect(second).toMatchObject({ row: 2, fileId: 'R_readerTestR0002', values: { QID1: 20 } });
    expect(third).toEqual({
      row: 3,
      reason: `The row has ${names.length + 1} fields; the header has ${names.length}.`,
    });
    expect(here).toEqual({ ...onThread, threadId });
  });

  it('refuses a file that cannot be read before handing over any batch, in either place', async () => {
    const path = join(dir, 'open-quote.csv');
    await writeFile(path, `${header}${line(row(1))}"${line(row(2))}`);
    for (const place of ['thread', 'event loop'] as const) {
      const reader = openImportReader({ ...data, path }, place);
      try {
        await expect(reader.rowsTotal).rejects.toThrow(UnreadableFileError);
        await expect(reader.next(new Date(), survey)).rejects.toThrow(/The file cannot be read/);
      } finally {
        await reader.close();
      }
    }
  });

  it('reports a file that is gone as gone, in either place (the job asks for it again)', async () => {
    expect(isFileGone(null)).toBe(false);
    expect(isFileGone(new Error('no code'))).toBe(false);
    for (const place of ['thread', 'event loop'] as const) {
      const reader = openImportReader({ ...data, path: join(dir, 'never-written.csv') }, place);
      try {
        const failure = await reader.rowsTotal.then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isFileGone(failure)).toBe(true);
      } finally {
        await reader.close();
      }
    }
  });

  it('hands over batches asked for before the count, in order, in either place (decision 0018)', async () => {
    const path = join(dir, 'ahead.csv');
    await writeFile(path, header + [1, 2, 3, 4, 5, 6, 7].map((n) => line(row(n))).join(''));
    for (const place of ['thread', 'event loop'] as const) {
      const reader = openImportReader({ ...data, path }, place);
      try {
        // The job asks ahead before it waits for the count: four requests for three batches and the end.
        const times = [1, 2, 3, 4].map((n) => new Date(Date.UTC(2026, 2, 1, 12, n)));
        const asked = times.map((now) => reader.next(now, survey));
        expect(await reader.rowsTotal).toBe(7);
        const batches = await Promise.all(asked);
        expect(batches.map((batch) => batch?.records.map((record) => record.row))).toEqual([
          [2, 3],
          [4, 5],
          [6, 7],
          undefined,
        ]);
        // Each batch is laid out at the instant it was asked for.
        for (const [i, batch] of batches.slice(0, 3).entries()) {
          expect(batch?.now).toBe(times[i]);
          const first = batch?.rows[0];
          expect(first && 'response' in first ? first.response.row.updated_at : undefined).toBe(
            `2026-03-01T12:0${i + 1}:00Z`,
          );
        }
      } finally {
        await reader.close();
      }
    }
  });

  it('stops counting once told to: a reader closed early leaves no count running', async () => {
    const path = join(dir, 'stopped.csv');
    await writeFile(path, header + [1, 2, 3].map((n) => line(row(n))).join(''));
    expect(await countImportRecords(path, 'csv')).toBe(3);
    const stop = new AbortController();
    stop.abort();
    expect(await countImportRecords(path, 'csv', stop.signal)).toBe(0);
    const reader = openImportReader({ ...data, path }, 'event loop');
    await reader.close();
    // The count settles (short) instead of reading on after the job is done with the file.
    expect(await reader.rowsTotal).toBeLessThan(3);
  });

  it('runs on a thread beside an engine that works on the event loop, for a file large enough to earn its start', () => {
    expect(readerPlace(true, 2_000_000, 1_000_000)).toBe('thread');
    expect(readerPlace(true, 1_000_000, 1_000_000)).toBe('thread');
    expect(readerPlace(true, 999_999, 1_000_000)).toBe('event loop');
    expect(readerPlace(false, 2_000_000, 1_000_000)).toBe('event loop');
    expect(readerPlace(false, 0, 0)).toBe('event loop');
  });

  it('counts the file beside the reader, not with it: on a thread only when the reader shares the event loop', () => {
    // Beside SQLite the reader has a thread: the job's event loop, idle until the first batch, counts.
    expect(countPlace('thread', 2_000_000, 1_000_000)).toBe('event loop');
    // Beside PostgreSQL the reader busies the event loop: a file large enough is counted on a thread.
    expect(countPlace('event loop', 2_000_000, 1_000_000)).toBe('thread');
    expect(countPlace('event loop', 1_000_000, 1_000_000)).toBe('thread');
    expect(countPlace('event loop', 999_999, 1_000_000)).toBe('event loop');
  });
});
