/**
 * Issue 6: a real export imported through `POST /v3/responseimports` into the real survey's definition,
 * then exported again with the real request's options, gives the real file's values. The real files are
 * read in place (../shared/fixtures/exports): the current csv (a useLabels export, so the import maps
 * choice texts back to recodes and the export maps them forth again) and the legacy csv2013 (recodes,
 * columns by position).
 *
 * The definition is newer than the export (fixtures/exports/README.md). Those documented differences,
 * and only those, are allowed by name below, in the values and in the three header rows alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { exportText, importFile, startWorker } from '../responseimports/imports-helpers.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { requireShared, SHARED } from './shared.js';

const EXPORTS = join(SHARED, 'fixtures', 'exports');
const QSF = 'qualtRics-apitestproject-qsf.json';
const CSV = 'qualtRics-apitestproject-csv.csv';
/** The request the real file answered (README). */
const REAL_REQUEST = { useLabels: true, includeDisplayOrder: true, breakoutSets: true, format: 'csv' };

/** README: QID16/QID17 were re-tagged after the export (`Q16` → `nondisplayed1`, `Q17` → `nondisplayed2`). */
const RETAGGED: Record<string, string> = { QID16: 'nondisplayed1', QID17: 'nondisplayed2' };
/** README: QID3 (`imagetest`) and QID11 were added after the export: the real file has no columns for them. */
const ADDED_AFTER_EXPORT = ['QID3', 'QID11'];

interface Table {
  names: string[];
  texts: string[];
  /** ImportId (`|choiceId`) of each column. */
  ids: string[];
  rows: string[][];
}

function table(text: string): Table {
  const [names, texts, importIds, ...rows] = parse(text, { relax_column_count: true }) as string[][];
  const ids = (importIds ?? []).map((cell) => {
    const json = JSON.parse(cell) as { ImportId: string; choiceId?: string };
    return json.choiceId === undefined ? json.ImportId : `${json.ImportId}|${json.choiceId}`;
  });
  return { names: names ?? [], texts: texts ?? [], ids, rows };
}

const questionOf = (id: string) => /^(QID\d+)/.exec(id)?.[1];
const isNumber = (cell: string) => cell.trim() !== '' && Number.isFinite(Number(cell));
/** Numbers compare as numbers: the real files print full binary expansions (`4.8700000000000001065…`). */
const same = (a: string, b: string) => a === b || (isNumber(a) && isNumber(b) && Number(a) === Number(b));

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let real: Table;
let ours: Table;
let importResult: { added: number; failed: number; errors: unknown[]; ignoredColumns: string[] };

beforeAll(async () => {
  requireShared();
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startWorker(t);
  const imported = await uploadQsf(t, org.apiToken, readFileSync(join(EXPORTS, QSF)));
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  const surveyId = imported.body.result.id as string;
  const file = readFileSync(join(EXPORTS, CSV));
  const { result } = await importFile(t, org.apiToken, surveyId, file);
  expect(result.status, JSON.stringify(result)).toBe('complete');
  importResult = result.result;
  real = table(file.toString('utf8'));
  ours = table(await exportText(t, org.apiToken, surveyId, REAL_REQUEST));
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

/** A csv2013 file: two header rows, then the rows; the BOM is dropped, the trailing empty column kept. */
function legacyTable(text: string) {
  const [names = [], texts = [], ...rows] = parse(text, {
    bom: true,
    relax_column_count: true,
  }) as string[][];
  return { names, texts, rows };
}

describe(`${CSV} through POST /v3/responseimports and back out`, () => {
  it('imports every response and every column', () => {
    expect(importResult.errors).toEqual([]);
    expect(importResult.added).toBe(real.rows.length);
    expect(importResult.ignoredColumns).toEqual([]);
  });

  it('exports the same values, column by column, for the columns both files have', () => {
    const ourIndex = new Map(ours.ids.map((id, i) => [id, i]));
    const realIndex = new Map(real.ids.map((id, i) => [id, i]));
    const onlyReal = real.ids.filter((id) => !ourIndex.has(id));
    const onlyOurs = ours.ids.filter((id) => !realIndex.has(id));
    const renamed = real.ids.flatMap((id, i) => {
      const o = ourIndex.get(id);
      return o !== undefined && ours.names[o] !== real.names[i]
        ? [`${real.names[i]} → ${ours.names[o]}`]
        : [];
    });
    const retexted = real.ids.flatMap((id, i) => {
      const o = ourIndex.get(id);
      return o !== undefined && ours.texts[o] !== real.texts[i]
        ? [`${real.names[i]}: ${JSON.stringify(real.texts[i])} → ${JSON.stringify(ours.texts[o])}`]
        : [];
    });
    // The header rows: the same columns, in the same order, with the same texts (row 2); only the two
    // re-tagged questions are named differently (row 1). Nothing else may differ.
    expect(onlyReal).toEqual([]);
    expect(onlyOurs).toEqual([]);
    expect(ours.ids).toEqual(real.ids);
    expect(renamed).toEqual(Object.entries(RETAGGED).map(([qid, tag]) => `Q${qid.slice(3)} → ${tag}`));
    expect(retexted).toEqual([]);
    // The questions added after the export sit in the definition's trash block: no column in either file.
    for (const qid of ADDED_AFTER_EXPORT) {
      expect(real.ids.some((id) => questionOf(id) === qid)).toBe(false);
      expect(ours.ids.some((id) => questionOf(id) === qid)).toBe(false);
    }

    const idAt = (tableOf: Table) => tableOf.ids.indexOf('_recordId');
    const ourRows = new Map(ours.rows.map((row) => [row[idAt(ours)], row]));
    expect([...ourRows.keys()].sort()).toEqual(real.rows.map((row) => row[idAt(real)]).sort());
    const mismatches: string[] = [];
    real.ids.forEach((id, r) => {
      const o = ourIndex.get(id);
      if (o === undefined) return;
      for (const realRow of real.rows) {
        const ourRow = ourRows.get(realRow[idAt(real)]) as string[];
        const [want, got] = [realRow[r] ?? '', ourRow[o] ?? ''];
        if (!same(want, got))
          mismatches.push(
            `${real.names[r]} (${id}) ${realRow[idAt(real)]}: ${JSON.stringify(want)} ≠ ${JSON.stringify(got)}`,
          );
      }
    });
    expect(mismatches).toEqual([]);
  });
});

describe('QualtricsTools-nobasis-csv2013.csv through POST /v3/responseimports (format csv2013) and back out', () => {
  const LEGACY_QSF = 'QualtricsTools-nobasis-qsf.qsf';
  const LEGACY_CSV = 'QualtricsTools-nobasis-csv2013.csv';
  let legacyReal: ReturnType<typeof legacyTable>;
  let legacyOurs: ReturnType<typeof legacyTable>;
  let legacyResult: typeof importResult;

  beforeAll(async () => {
    const imported = await uploadQsf(t, org.apiToken, readFileSync(join(EXPORTS, LEGACY_QSF)));
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const surveyId = imported.body.result.id as string;
    const file = readFileSync(join(EXPORTS, LEGACY_CSV));
    const { result } = await importFile(t, org.apiToken, surveyId, file, { format: 'csv2013' });
    expect(result.status, JSON.stringify(result)).toBe('complete');
    legacyResult = result.result;
    legacyReal = legacyTable(file.toString('utf8'));
    // The real file's options: recodes, no display order, dates as written (read and written in UTC).
    legacyOurs = legacyTable(await exportText(t, org.apiToken, surveyId, { format: 'csv2013' }));
  });

  it('imports all 15 responses, every column by position', () => {
    expect(legacyResult.errors).toEqual([]);
    expect(legacyResult.added).toBe(15);
    expect(legacyResult.ignoredColumns).toEqual([]);
    expect(legacyOurs.names).toEqual(legacyReal.names);
  });

  it('exports the same value in every cell of every column, ResponseID kept (numbers as numbers)', () => {
    // No cell is excepted: ResponseSet and Name are the export's fillers ("Default Response Set",
    // "Anonymous"), read back as nothing and written again; LocationAccuracy (-1) is kept beside the
    // answers; the dates carry no zone and go in and out in UTC; the custom recodes -1/-2 are recodes.
    expect(legacyOurs.rows.map((row) => row[0])).toEqual(legacyReal.rows.map((row) => row[0]));
    const mismatches: string[] = [];
    legacyReal.rows.forEach((realRow, r) => {
      const ourRow = legacyOurs.rows[r] ?? [];
      expect(ourRow).toHaveLength(realRow.length);
      realRow.forEach((want, c) => {
        const got = ourRow[c] ?? '';
        if (!same(want, got))
          mismatches.push(
            `${legacyReal.names[c]} ${realRow[0]}: ${JSON.stringify(want)} ≠ ${JSON.stringify(got)}`,
          );
      });
    });
    expect(mismatches).toEqual([]);
    // Today even the texts agree (the real file's locations have 14 digits, which a double prints back).
    expect(legacyOurs.rows).toEqual(legacyReal.rows);
  });
});
