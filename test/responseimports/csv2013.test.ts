/**
 * Response imports of the legacy csv2013 layout (two header rows, BOM, trailing empty column, columns
 * matched by position): our csv2013 export imported into a copy of the survey and exported again gives
 * the same cells but ResponseID; a header that is not our layout is refused before anything is queued.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import type { TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import {
  exportImportExport,
  exportText,
  importFile,
  postImport,
  smallSurveyWithResponses,
} from './imports-helpers.js';

let t: TestApp;
let org: BootstrapResult;
let sourceId: string;

const ANSWERS: Record<string, unknown>[] = [
  {
    QID1: '30',
    QID1_3_TEXT: 'Cherry, "ripe"\nsecond line',
    QID2_1: 1,
    QID2_2: 1,
    QID3_TEXT: 'Lovely',
    QID4_1: 5,
    QID4_2: 1,
    QID5: 9,
    panel: 'autumn',
    recipientEmail: 'ada@example.org',
  },
  {
    QID1: '10',
    QID2_3: 1,
    QID5: 3,
    status: 1,
    startDate: '2026-02-28T10:00:00Z',
    endDate: '2026-02-28T10:05:30Z',
    ipAddress: '127.0.0.1',
  },
  { QID3_TEXT: 'Third', finished: 0, progress: 50 },
];

let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, org, sourceId, close } = await smallSurveyWithResponses(ANSWERS));
});
afterAll(() => close());

const rowsOf = (text: string) => parse(text, { bom: true, relax_column_count: true }) as string[][];

/** Both header rows equal; every data cell equal but V1 (ResponseID: the first survey holds the ids). */
function expectSameCells(before: string[][], after: string[][]) {
  expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
  const strip = (rows: string[][]) => rows.slice(2).map((row) => row.slice(1));
  expect(after).toHaveLength(before.length);
  expect(strip(after)).toEqual(strip(before));
}

async function roundTrip(options: Record<string, unknown>) {
  const format = { format: 'csv2013' };
  const run = await exportImportExport(
    t,
    org.apiToken,
    sourceId,
    ANSWERS.length,
    { ...format, ...options },
    format,
  );
  expect(run.result.result).toMatchObject({ ignoredColumns: [] });
  return run;
}

describe('csv2013: export → import into a copy → export', () => {
  it('recodes (BOM, trailing empty column, UTC dates): the same cells but ResponseID', async () => {
    const { first, second } = await roundTrip({});
    expect(first.startsWith('\uFEFFV1,V2,')).toBe(true);
    expect(first).toContain('Default Response Set,Anonymous');
    expect(first).toContain('2026-02-28 10:05:30');
    expectSameCells(rowsOf(first), rowsOf(second));
  });

  it('labels (Status "Survey Preview", Finished "True", choice texts): the same cells', async () => {
    const { first, second } = await roundTrip({ useLabels: true });
    expect(first).toContain('Survey Preview');
    expectSameCells(rowsOf(first), rowsOf(second));
  });

  it('a ResponseSet or Name other than the fillers, and the location, are kept', async () => {
    const first = await exportText(t, org.apiToken, sourceId, { format: 'csv2013' });
    const edited = first
      .replace('Default Response Set,Anonymous', 'Panel B,Ada Lovelace')
      .replace('autumn,,,,,', 'autumn,,42.401901245117,-71.119300842285,-1,');
    expect(edited).toContain('-71.119300842285');
    const copyId = await importSmallSurvey(t, org.apiToken);
    const { result } = await importFile(t, org.apiToken, copyId, edited, { format: 'csv2013' });
    expect(result.result).toMatchObject({ added: ANSWERS.length, failed: 0 });
    const second = await exportText(t, org.apiToken, copyId, { format: 'csv2013' });
    expectSameCells(rowsOf(edited), rowsOf(second));
  });
});

describe('csv2013 headers refused before anything is queued', () => {
  const refused = async (file: string, pattern: RegExp) => {
    const res = await postImport(t, org.apiToken, file, { surveyId: sourceId, format: 'csv2013' });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_IMP_2');
    expect(res.body.meta.error.errorMessage).toMatch(pattern);
  };

  it('a row-1 name that is not ours: 400 FW_IMP_2 naming the first differing column', async () => {
    const file = await exportText(t, org.apiToken, sourceId, { format: 'csv2013' });
    await refused(
      file.replace('V1,V2,V3,', 'V1,V2,Name,'),
      /column 3 is "Name", our csv2013 export has "V3"/,
    );
    const [names] = file.split('\r\n');
    await refused(`${names}\r\n`, /two header rows/);
  });

  it('a csv export sent as csv2013, and a column missing at the end', async () => {
    const csv = await exportText(t, org.apiToken, sourceId, { format: 'csv' });
    await refused(csv, /column 1 is "StartDate", our csv2013 export has "V1"/);
    const file = await exportText(t, org.apiToken, sourceId, { format: 'csv2013' });
    const short = file.replace(',LocationAccuracy,', ',');
    await refused(short, /our csv2013 export \d+: LocationAccuracy is missing/);
  });
});
