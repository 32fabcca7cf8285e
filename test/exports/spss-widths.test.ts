/**
 * `.sav` string widths that fit the data (issue 6): an spss export measures its string columns over the
 * same responses it writes, so pspp reads back `A3` for a 3-byte answer and a 30,000-byte very long
 * string whole, where the default 2000-byte width would cut it. 32,767 bytes is the format's widest
 * string: a 40,000-byte answer is cut there, on a whole character, and the job counts it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { responseStringWidths } from '../../src/modules/responses/export-reads.service.js';
import { insertResponses } from '../../src/modules/responses/responses.store.js';
import { responseRow } from '../helpers/factories.js';
import { dataRows, readSavWithPspp } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { runLegacyExport, startExportWorker } from './exports-helpers.js';

const DAY = 24 * 3600 * 1000;
const TEXT_300 = 'é'.repeat(150); // 300 bytes
// 255-byte segment borders fall inside the 4-byte characters.
const TEXT_30000 = `x${'😀'.repeat(7499)}abc`;
const TEXT_40000 = `x${'😀'.repeat(9999)}abc`;

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
const responseIds: string[] = [];

// Recorded on 1, 2, 3 and 4 March: `comment` is the text entry (QID3_TEXT), `panel` embedded data.
const RESPONSES = [
  { QID3_TEXT: 'abc', panel: TEXT_300, ipAddress: '::1', QID2_1: 1, QID2_2: 1 },
  { QID3_TEXT: TEXT_300, panel: 'x' },
  { QID3_TEXT: TEXT_30000 },
  { QID3_TEXT: TEXT_40000 },
];

beforeAll(async () => {
  const clock = manualClock('2026-03-01T12:00:00Z');
  t = await buildTestApp({ clock });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  for (const values of RESPONSES) {
    const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    responseIds.push(res.body.result.responseId);
    clock.advance(DAY);
  }
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** Runs an spss export to the end; answers the job's result and what pspp reads from the `.sav`. */
async function exportSpss(body: Record<string, unknown>) {
  const { id, content } = await runLegacyExport(t, org.apiToken, { surveyId, format: 'spss', ...body });
  const job = await t.database.db
    .selectFrom('jobs')
    .select('result')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { result: JSON.parse(job.result ?? '{}'), ...(await readWithPspp(content)) };
}

/** What pspp reads from a `.sav`: name → print format, rows by name. */
async function readWithPspp(sav: Buffer) {
  const { tables, log } = await readSavWithPspp(sav);
  const variables = tables.get('Variables') ?? [];
  const formatColumn = (variables[0] ?? []).indexOf('Print Format');
  const formats = new Map(variables.slice(1).map((row) => [row[0] as string, row[formatColumn] as string]));
  return { formats, rows: dataRows(tables), log };
}

const widthsOf = (formats: Map<string, string>) =>
  ['comment', 'panel', 'IPAddress', 'ResponseId'].map((name) => formats.get(name));

describe('spss export string widths', () => {
  it('fit every response: a 30,000-byte multibyte answer is read back whole, nothing truncated', async () => {
    const { result, formats, rows, log } = await exportSpss({ endDate: '2026-03-04T00:00:00Z' });
    expect(log.split('\n').filter((line) => /warning|error/i.test(line))).toEqual([]);
    expect(widthsOf(formats)).toEqual(['A30000', 'A300', 'A3', 'A17']);
    expect(rows.map((row) => row.get('ResponseId'))).toEqual(responseIds.slice(0, 3));
    expect(rows.map((row) => row.get('comment'))).toEqual(['abc', TEXT_300, TEXT_30000]);
    expect(rows.map((row) => row.get('panel'))).toEqual([TEXT_300, 'x', '']);
    expect(result).toMatchObject({ rowsWritten: 3 });
    expect(result).not.toHaveProperty('truncatedValues');
  });

  it('are measured over the export’s own responses: limit 1 gives A3, a date range the 300-byte answer', async () => {
    const first = await exportSpss({ limit: 1 });
    expect(widthsOf(first.formats)).toEqual(['A3', 'A300', 'A3', 'A17']);
    expect(first.rows.map((row) => [row.get('comment'), row.get('IPAddress')])).toEqual([['abc', '::1']]);
    const second = await exportSpss({ startDate: '2026-03-02T00:00:00Z', endDate: '2026-03-03T00:00:00Z' });
    // No IP address and a one-byte panel: the narrowest width pspp accepts is 1.
    expect(widthsOf(second.formats)).toEqual(['A300', 'A1', 'A1', 'A17']);
    expect(second.rows.map((row) => row.get('comment'))).toEqual([TEXT_300]);
    for (const { result } of [first, second]) expect(result).not.toHaveProperty('truncatedValues');
  });

  it('give a joined multi-answer set (breakoutSets false) room for every recode: "1,2,3" is 5 bytes', async () => {
    const { result, formats, rows } = await exportSpss({ limit: 1, breakoutSets: false });
    expect(formats.get('Q2')).toBe('A5');
    expect(rows.map((row) => row.get('Q2'))).toEqual(['1,2']);
    expect(result).not.toHaveProperty('truncatedValues');
  });

  it('stop at the format’s widest string, 32,767 bytes: a 40,000-byte answer is cut and counted', async () => {
    const { result, formats, rows } = await exportSpss({ startDate: '2026-03-04T00:00:00Z' });
    expect(formats.get('comment')).toBe('A32767');
    // 1 + 8191 × 4 = 32,765 bytes: the next character would not fit whole.
    expect(rows.map((row) => row.get('comment'))).toEqual([`x${'😀'.repeat(8191)}`]);
    expect(result).toMatchObject({ rowsWritten: 1, truncatedValues: 1 });
  });

  it('count what the writer writes: arrays joined by ",", numbers as JSON prints them, replaced newlines', async () => {
    const survey = await t.database.db
      .selectFrom('surveys')
      .select(['organization_id'])
      .where('id', '=', surveyId)
      .executeTakeFirstOrThrow();
    const scope = { organizationId: survey.organization_id };
    const values = {
      a: ['x', 'é', 12],
      b: 4.87,
      c: true,
      d: 'line1\r\nline2\nx',
      e: null,
      f: [],
      'g"h.i': 'abc',
    };
    await insertResponses(t.database.db, [
      responseRow(
        {
          id: 'R_widthsCrafted01',
          organizationId: scope.organizationId,
          surveyId,
          seq: 1000,
          at: '2026-04-01T00:00:00Z',
        },
        values,
      ),
    ]);
    const filter = { surveyId, from: '2026-04-01T00:00:00Z' };
    const keys = ['a', 'b', 'c', 'd', 'e', 'f', 'g"h.i', 'missing'];
    const plain = await responseStringWidths(t.database.db, scope, { filter, keys });
    // "x,é,12" 7, "4.87" 4, "true" 4, the text 14; null and [] write nothing; a key with a quote and a
    // dot is found; no response has `missing`.
    expect(Object.fromEntries(plain)).toEqual({
      a: 7,
      b: 4,
      c: 4,
      d: 14,
      e: 0,
      f: 0,
      'g"h.i': 3,
      missing: 0,
    });
    const replaced = await responseStringWidths(t.database.db, scope, {
      filter,
      keys,
      newlineReplacement: ' / ',
    });
    expect(replaced.get('d')).toBe('line1 / line2 / x'.length);
    const other = await responseStringWidths(t.database.db, { organizationId: 'O_other' }, { filter, keys });
    expect([...other.values()]).toEqual(keys.map(() => 0));
  });
});
