/**
 * Issue 6: for a real survey definition, the csv and csv2013 files our export endpoint writes have the
 * header rows of the real platform's export of the same survey, column for column and in order
 * (../shared/fixtures/exports/README.md). Each definition is imported through the API, exported through
 * `POST /surveys/{id}/export-responses` with the real request's options, and the header rows compared.
 * The values are compared by export-roundtrip.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { startExportWorker, unzip, waitForExport } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { requireShared, SHARED } from './shared.js';

const EXPORTS = join(SHARED, 'fixtures', 'exports');
const read = (file: string) => readFileSync(join(EXPORTS, file));

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
beforeAll(async () => {
  requireShared();
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** Imports a definition file through the API; answers the new survey's id. */
async function importDefinition(file: string): Promise<string> {
  const res = await uploadQsf(t, org.apiToken, read(file));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as string;
}

/** Exports through the current spelling and answers the zip's one member. */
async function exportSurvey(surveyId: string, request: Record<string, unknown>): Promise<Buffer> {
  const base = `/API/v3/surveys/${surveyId}/export-responses`;
  const started = await t.call(org.apiToken, 'POST', base, request);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { last } = await waitForExport(t, org.apiToken, `${base}/${started.body.result.progressId}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  const file = await t.app.inject({
    method: 'GET',
    url: `${base}/${last.body.result.fileId}/file`,
    headers: { 'x-api-token': org.apiToken },
  });
  expect(file.statusCode).toBe(200);
  const entries = [...(await unzip(file.rawPayload)).values()];
  expect(entries).toHaveLength(1);
  return entries[0] as Buffer;
}

/** The header rows as one record per column: `name | text | importId`. */
function headerColumns(bytes: Buffer, rows: 2 | 3): string[][] {
  const header = parse(bytes, { to: rows, bom: true, relax_column_count: true }) as string[][];
  return (header[0] ?? []).map((_, i) => header.map((row) => row[i] ?? ''));
}

/**
 * A documented difference between the real file and what the definition gives: the real column at
 * `importId` has `real` in header row `row` (0 = names), where ours has `ours`.
 */
interface Difference {
  importId: string;
  row: number;
  real: string;
  ours: string;
  reason: string;
}

/** Applies the documented differences to our columns (after checking each is exactly as documented). */
function withDifferences(ours: string[][], real: string[][], differences: Difference[]): string[][] {
  const patched = ours.map((column) => [...column]);
  for (const d of differences) {
    const index = real.findIndex((column) => column[2] === d.importId);
    expect(index, `real column ${d.importId}`).toBeGreaterThanOrEqual(0);
    expect(real[index]?.[d.row], d.reason).toBe(d.real);
    expect(patched[index]?.[2], `our column ${index} is ${d.importId}`).toBe(d.importId);
    expect(patched[index]?.[d.row], d.reason).toBe(d.ours);
    (patched[index] as string[])[d.row] = d.real;
  }
  return patched;
}

const NEWER_QSF =
  'the QSF was saved after the export (README: LastModified 2020-12-08, export 2020-12-07): ' +
  'QID16/QID17 were retagged nondisplayed1/2 since; the export still names them Q16/Q17';

describe('qualtRics API TEST PROJECT (csv, labels, display order, breakout sets)', () => {
  const REAL = 'qualtRics-apitestproject-csv.csv';
  const REQUEST = { useLabels: true, includeDisplayOrder: true, breakoutSets: true, format: 'csv' };
  // The only differences the README documents. Text iQ columns: this export has none.
  const DIFFERENCES: Difference[] = [
    { importId: '{"ImportId":"QID16"}', row: 0, real: 'Q16', ours: 'nondisplayed1', reason: NEWER_QSF },
    { importId: '{"ImportId":"QID17"}', row: 0, real: 'Q17', ours: 'nondisplayed2', reason: NEWER_QSF },
  ];
  let surveyId: string;
  let ours: string[][];
  let real: string[][];
  let bytes: Buffer;
  beforeAll(async () => {
    surveyId = await importDefinition('qualtRics-apitestproject-qsf.json');
    bytes = await exportSurvey(surveyId, REQUEST);
    ours = headerColumns(bytes, 3);
    real = headerColumns(read(REAL), 3);
  });

  it('has the real file three header rows, column for column, in order', () => {
    expect(real.length).toBe(85);
    expect(withDifferences(ours, real, DIFFERENCES).map((c) => c.join(' | '))).toEqual(
      real.map((c) => c.join(' | ')),
    );
  });

  it('writes the header rows byte for byte apart from the two retagged names', () => {
    const rename = (text: string) => text.replace(/,nondisplayed1,nondisplayed2\r\n/, ',Q16,Q17\r\n');
    const ourHeader = rename(bytes.toString('utf8').split('\r\n').slice(0, 3).join('\r\n'));
    expect(ourHeader).toBe(read(REAL).toString('utf8').split('\r\n').slice(0, 3).join('\r\n'));
  });

  it('gives no column to QID3 and QID11, which sit in the Trash block (README: no CSV columns)', () => {
    const trashed = /"ImportId":"QID(3|11)[_"#]/;
    expect(real.filter((c) => trashed.test(c[2] ?? ''))).toEqual([]);
    expect(ours.filter((c) => trashed.test(c[2] ?? ''))).toEqual([]);
  });

  it('without includeDisplayOrder leaves out exactly the _DO_ and _ADO_ columns', async () => {
    const plain = headerColumns(await exportSurvey(surveyId, { ...REQUEST, includeDisplayOrder: false }), 3);
    expect(plain.map((c) => c[0])).toEqual(
      ours.map((c) => c[0]).filter((name) => !/_A?DO_\d+$/.test(name as string)),
    );
    expect(ours.length - plain.length).toBe(real.filter((c) => /_A?DO_\d+$/.test(c[0] as string)).length);
  });
});

describe('QualtricsTools No Basis for Evaluation (csv2013)', () => {
  const REAL = 'QualtricsTools-nobasis-csv2013.csv';
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = await exportSurvey(await importDefinition('QualtricsTools-nobasis-qsf.qsf'), {
      format: 'csv2013',
    });
  });

  it('has the real file two header rows, column for column, in order (no exceptions)', () => {
    const real = headerColumns(read(REAL), 2);
    expect(real.length).toBe(49);
    expect(headerColumns(bytes, 2).map((c) => c.join(' | '))).toEqual(real.map((c) => c.join(' | ')));
  });

  it('writes them byte for byte: BOM, trailing comma (the real file was committed with LF)', () => {
    const lines = (text: string) => text.split(/\r?\n/).slice(0, 2);
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(lines(bytes.toString('utf8'))).toEqual(lines(read(REAL).toString('utf8')));
  });
});
