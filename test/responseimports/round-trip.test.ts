/**
 * Issue 6, response imports: an export made by our own endpoint, imported into a copy of the survey (made
 * from the same definition) and exported again, gives the same values cell for cell — csv with recodes in
 * a time zone, csv with labels, tsv. Only ResponseId differs: the ids are taken by the first survey.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import type { TestApp } from '../helpers/test-app.js';
import { exportImportExport, exportText, importFile, smallSurveyWithResponses } from './imports-helpers.js';

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
    // QID7 is a pick-group-rank question with no groups: since the engine runs that type (issue 14) it has
    // the real type's keys, which with no groups are none (it took a generic text key before).
    panel: 'autumn',
  },
  {
    QID1: '10',
    QID2_3: 1,
    QID3_TEXT: 'Meh',
    QID5: 3,
    panel: 'winter',
    status: 1,
    startDate: '2026-02-28T10:00:00Z',
    endDate: '2026-02-28T10:05:30Z',
    ipAddress: '127.0.0.1',
    userLanguage: 'EN',
  },
  { QID3_TEXT: 'Third', finished: 0, progress: 50 },
];

let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, org, sourceId, close } = await smallSurveyWithResponses(ANSWERS));
});
afterAll(() => close());

const rowsOf = (text: string, delimiter: string) =>
  parse(text, { delimiter, relax_column_count: true }) as string[][];

/** Every cell equal, but ResponseId (another survey holds the first ids). */
function expectSameCells(before: string[][], after: string[][]) {
  expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
  const id = (before[0] as string[]).indexOf('ResponseId');
  const strip = (rows: string[][]) => rows.slice(3).map((row) => row.filter((_, i) => i !== id));
  expect(after).toHaveLength(before.length);
  expect(strip(after)).toEqual(strip(before));
  // The ids the source holds are not taken again: each row got a new one.
  const ids = (rows: string[][]) => rows.slice(3).map((row) => row[id] as string);
  for (const [i, newId] of ids(after).entries()) {
    expect(newId).toMatch(/^R_[A-Za-z0-9]{15}$/);
    expect(ids(before)).not.toContain(newId);
    expect(ids(after).indexOf(newId)).toBe(i);
  }
}

async function roundTrip(options: Record<string, unknown>, importFields: Record<string, string> = {}) {
  const run = await exportImportExport(t, org.apiToken, sourceId, ANSWERS.length, options, importFields);
  expect(run.seen.every((p, i) => i === 0 || p >= (run.seen[i - 1] as number))).toBe(true);
  return run;
}

describe('export → import into a copy → export', () => {
  it('csv with recodes, dates in a time zone: the same cells', async () => {
    const { first, second } = await roundTrip({ format: 'csv', timeZone: 'America/Denver' });
    const before = rowsOf(first, ',');
    expect(before[3]?.join(',')).toContain('Cherry');
    expectSameCells(before, rowsOf(second, ','));
  });

  it('csv with labels (choice texts, "True", "IP Address"): the same cells', async () => {
    const { first, second } = await roundTrip({ format: 'csv', useLabels: true });
    expect(first).toContain('Survey Preview');
    expect(first).toContain('Apple');
    expectSameCells(rowsOf(first, ','), rowsOf(second, ','));
  });

  it('csv without breakout, labels (a multi-answer question in one joined column): the same cells', async () => {
    const { first, second } = await roundTrip({ format: 'csv', breakoutSets: false, useLabels: true });
    expect(first).toContain('"Red,Green"');
    expectSameCells(rowsOf(first, ','), rowsOf(second, ','));
  });

  it('tsv with decimal commas: the same cells', async () => {
    const options = { format: 'tsv', formatDecimalAsComma: true };
    const { first, second } = await roundTrip(options, { format: 'tsv', decimalSeparator: ',' });
    expectSameCells(rowsOf(first, '\t'), rowsOf(second, '\t'));
  });

  it('the copy counts the imported responses and its quotas, and no completion event is emitted', async () => {
    const before = await t.database.db.selectFrom('events').select('id').execute();
    const { copyId } = await roundTrip({ format: 'csv' });
    const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${copyId}`);
    // Statuses are kept: two real respondents (0), one preview (1).
    expect(survey.body.result.responseCounts).toMatchObject({ auditable: 2, generated: 1 });
    const quotas = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${copyId}/quotas`);
    const everyone = quotas.body.result.elements.find((q: { name: string }) => q.name === 'Everyone');
    expect(everyone.count).toBe(ANSWERS.length);
    const after = await t.database.db.selectFrom('events').select(['id', 'topic']).execute();
    expect(after.filter((e) => e.topic.endsWith(copyId))).toEqual([]);
    expect(after.length).toBe(before.length);
  });

  it('importing the copy’s own export again skips every row as already there, and changes nothing', async () => {
    const { copyId, second } = await roundTrip({ format: 'csv' });
    const { result } = await importFile(t, org.apiToken, copyId, second);
    expect(result.status).toBe('complete');
    expect(result.result.added).toBe(0);
    expect(result.result.failed).toBe(ANSWERS.length);
    expect(result.result.errors[0].row).toBe(1);
    expect(result.result.errors[0].message).toMatch(/^Response R_\w+ already exists in the survey/);
    expect(await exportText(t, org.apiToken, copyId, { format: 'csv' })).toBe(second);
  });
});
