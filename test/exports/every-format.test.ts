/**
 * Issue 6: every export format, from a survey with every question type the engine runs
 * (test/fixtures/surveys/every-type.qsf), opens in the tool its users use: csv, csv2013 and tsv parse
 * with COMPAT.md's header rows, json and ndjson parse, the xml is well-formed and pspp reads the `.sav`.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { dataRows, readSavWithPspp, valueLabelLines } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { exportedFile, startExportWorker } from './exports-helpers.js';

const QSF = readFileSync(new URL('../fixtures/surveys/every-type.qsf', import.meta.url), 'utf8');
const TEXT = 'Zoë – naïve ✓, "quoted"\nsecond line';
const METADATA =
  'StartDate,EndDate,Status,IPAddress,Progress,Duration (in seconds),Finished,RecordedDate,ResponseId,RecipientLastName,RecipientFirstName,RecipientEmail,ExternalReference,LocationLatitude,LocationLongitude,DistributionChannel,UserLanguage';

type Answers = Record<string, string | number>;
// Between them the first two answer every value key of the survey (one object a line of questions); the
// third is mostly empty.
const RESPONSES: Answers[] = [
  Object.assign(
    { QID1: 30, QID1_3_TEXT: TEXT, QID2_1: 1, QID2_3: 1, QID2_3_TEXT: 'Teal, "dark"', QID3: 2, QID4: 9 },
    { QID5_TEXT: TEXT, QID6_TEXT: 'line one\nline two', QID7_1: 'Zürich', QID7_2: 'Schweiz' },
    { QID8_1: 5, QID8_2: 1, QID9_1_1: 1, QID9_2_2: 1, QID10_1: 42.5, QID11_1: 2, QID11_2: 1, QID11_3: 3 },
    { 'QID12#1_1': 2, 'QID12#1_2': 1, 'QID12#2_1_1': 1, 'QID12#2_2_2': 1, panel: TEXT },
    { QID14_FIRST_CLICK: 1.5, QID14_LAST_CLICK: 7.25, QID14_PAGE_SUBMIT: 9, QID14_CLICK_COUNT: 4 },
  ),
  Object.assign(
    { QID1: 10, QID2_2: 1, QID3: 1, QID4: 3, QID5_TEXT: 'Ann', QID6_TEXT: 'ok', QID7_1: 'Oslo' },
    { QID7_2: 'Norge', QID8_1: 1, QID8_2: 5, QID9_1_2: 1, QID9_2_1: 1, QID10_1: 0, QID11_1: 1, QID11_2: 3 },
    { QID11_3: 2, 'QID12#1_1': 1, 'QID12#1_2': 2, 'QID12#2_1_2': 1, 'QID12#2_2_1': 1, panel: 'winter' },
    { QID14_FIRST_CLICK: 0.5, QID14_LAST_CLICK: 2, QID14_PAGE_SUBMIT: 3, QID14_CLICK_COUNT: 1 },
  ),
  { QID5_TEXT: 'Only a name' },
];
// What the exports add: the NPS group derived from QID4 (9 → 3 Promoter, 3 → 1 Detractor).
const EXPECTED = [
  { ...RESPONSES[0], QID4_NPS_GROUP: 3 },
  { ...RESPONSES[1], QID4_NPS_GROUP: 1 },
  RESPONSES[2],
];

// The .sav variable names: the export tags, made valid (`timer_First Click` → `timer_First_Click`).
const SAV_NAMES = [
  'single single_3_TEXT multi_1 multi_2 multi_3 multi_3_TEXT dropdown nps_NPS_GROUP nps name essay form_1',
  'form_2 grid_1 grid_2 when_1_1 when_1_2 when_2_1 when_2_2 slider_1 rank_1 rank_2 rank_3 sbs#1_1 sbs#1_2',
  'sbs#2_1_1 sbs#2_1_2 sbs#2_2_1 sbs#2_2_2 timer_First_Click timer_Last_Click timer_Page_Submit',
  'timer_Click_Count panel',
]
  .join(' ')
  .split(' ');

type Question = { supported: boolean; valueKeys: string[] };

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
let valueKeys: string[];
const responseIds: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  const imported = await uploadQsf(t, org.apiToken, QSF);
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  expect(imported.body.meta.notice).toBeUndefined(); // no "questions the engine cannot run"
  surveyId = imported.body.result.id;
  const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
  const questions = Object.values(survey.body.result.questions) as Question[];
  expect(questions.map((q) => q.supported)).toEqual(Array(14).fill(true));
  valueKeys = questions.flatMap((q) => q.valueKeys);
  for (const values of RESPONSES) {
    const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    responseIds.push(res.body.result.responseId);
  }
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

/** Exports the survey in `format` through the current endpoint; answers the zip's one file. */
async function exportFile(format: string): Promise<{ name: string; text: string; bytes: Buffer }> {
  const { name, bytes } = await exportedFile(t, org.apiToken, surveyId, { format });
  return { name, text: bytes.toString('utf8'), bytes };
}

/** A header row 3 cell back to the value key it shows (`{"ImportId":"QID9_1","choiceId":"2"}` → QID9_1_2). */
function keyOf(cell: string): string {
  const { ImportId, choiceId } = JSON.parse(cell) as { ImportId: string; choiceId?: string };
  return choiceId === undefined ? ImportId : `${ImportId}_${choiceId}`;
}

const cellOf = (value: string | number | undefined) => (value === undefined ? '' : String(value));

/** csv and tsv: three header rows, a column for every value key, every answer read back. */
function checkDelimited(text: string, delimiter: string) {
  expect(text.charCodeAt(0)).not.toBe(0xfeff);
  const rows = parse(text, { delimiter }) as string[][];
  const [names, texts, importIds] = rows as [string[], string[], string[]];
  expect(names.slice(0, 17).join(',')).toBe(METADATA);
  expect(texts.slice(0, 2)).toEqual(['Start Date', 'End Date']);
  const keys = importIds.map(keyOf);
  expect(keys).toEqual(expect.arrayContaining([...valueKeys, 'panel']));
  expect(names[keys.indexOf('QID1')]).toBe('single');
  expect(names[keys.indexOf('QID5_TEXT')]).toBe('name');
  expect(names[keys.indexOf('QID12#2_1_2')]).toBe('sbs#2_1_2');
  expect(names[keys.indexOf('QID14_FIRST_CLICK')]).toBe('timer_First Click');
  const data = rows.slice(3);
  expect(data.map((row) => row[keys.indexOf('_recordId')])).toEqual(responseIds);
  data.forEach((row, i) => {
    const expected = EXPECTED[i] as Record<string, string | number>;
    const read = Object.fromEntries([...valueKeys, 'panel'].map((k) => [k, row[keys.indexOf(k)]]));
    const want = Object.fromEntries([...valueKeys, 'panel'].map((k) => [k, cellOf(expected[k])]));
    expect(read).toEqual(want);
  });
}

describe('every export format from a survey with every question type', () => {
  it('records answers under every value key the survey has', () => {
    const answered = new Set(RESPONSES.flatMap((values) => Object.keys(values)));
    expect(valueKeys.filter((k) => !answered.has(k))).toEqual(['QID4_NPS_GROUP']); // derived
    expect(valueKeys).toHaveLength(33);
  });

  it('csv parses with three header rows and every answer', async () => {
    const { name, text } = await exportFile('csv');
    expect(name).toBe('Every type.csv');
    checkDelimited(text, ',');
  });

  it('tsv parses tab-delimited with the same header rows', async () => {
    const { name, text } = await exportFile('tsv');
    expect(name).toBe('Every type.tsv');
    checkDelimited(text, '\t');
  });

  it('csv2013 has a BOM, two header rows opening V1..V10, and the answers', async () => {
    const { text } = await exportFile('csv2013');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = parse(text, { bom: true, relax_column_count: true }) as string[][];
    const [names, texts] = rows as [string[], string[]];
    expect(names.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `V${i + 1}`));
    expect(texts[0]).toBe('ResponseID');
    expect(rows.slice(2).map((row) => row[0])).toEqual(responseIds);
    expect(rows[2]?.[names.indexOf('name')]).toBe(TEXT);
    expect(rows[2]?.[names.indexOf('sbs#1_1')]).toBe('2');
  });

  it('json and ndjson parse with every answer in values', async () => {
    const json = JSON.parse((await exportFile('json')).text);
    const lines = (await exportFile('ndjson')).text.trim().split('\n');
    const ndjson = lines.map((line) => JSON.parse(line));
    for (const responses of [json.responses, ndjson]) {
      expect(responses.map((r: { responseId: string }) => r.responseId)).toEqual(responseIds);
      for (const [i, r] of (responses as { values: object }[]).entries()) {
        expect(r.values).toMatchObject(EXPECTED[i] as object);
      }
    }
  });

  it('xml is well-formed with three Response elements', async () => {
    const { text } = await exportFile('xml');
    expect(XMLValidator.validate(text)).toBe(true);
    const doc = new XMLParser({ parseTagValue: false, trimValues: false }).parse(text);
    const responses = doc.Responses.Response as Record<string, string>[];
    expect(responses.map((r) => r._recordId)).toEqual(responseIds);
    expect(responses[0]?.QID5_TEXT).toBe(TEXT);
    expect(responses[0]?.QID12_2_2_2).toBe('1');
  });

  it('spss is read back by pspp with names, labels, value labels and values, without warnings', async () => {
    const { name, bytes } = await exportFile('spss');
    expect(name).toBe('Every type.sav');
    const { log, labels, valueLabels, rows } = await readWithPspp(bytes);
    expect(log.split('\n').filter((line) => /warning|error/i.test(line))).toEqual([]);
    expect([...labels.keys()].slice(17)).toEqual(SAV_NAMES);
    expect(labels.get('dropdown')).toBe('Which size?');
    // Inline markup goes without a space (`<b>most</b>?`), as the real headers read.
    expect(labels.get('single')).toBe('Which fruit do you like most? - Selected Choice');
    expect(labels.get('sbs#1_1')).toBe('Groceries - How often - Bread');
    expect(labels.get('timer_First_Click')).toBe('Timing - First Click');
    expect(valueLabels.get('Which size?')).toBe('1=Small 2=Large');
    expect(valueLabels.get('Rate these - Taste')).toBe('1=Bad 5=Good');
    expect(valueLabels.get('Groceries - How often - Milk')).toBe('1=Never 2=Daily');
    expect(valueLabels.get('Groceries - Where - Bread - Online')).toBe('1=Online');
    expect(valueLabels.get('How likely are you to recommend us? - Group')).toBe(
      '1=Detractor 2=Passive 3=Promoter',
    );
    expect(rows.map((row) => row.get('ResponseId'))).toEqual(responseIds);
    const pick = ['single', 'multi_2', 'multi_3_TEXT', 'nps_NPS_GROUP', 'name', 'form_1', 'when_2_2'];
    const more = ['slider_1', 'rank_2', 'sbs#1_1', 'sbs#2_1_2', 'timer_Click_Count', 'panel'];
    const read = (row: Map<string, string> | undefined) => [...pick, ...more].map((k) => row?.get(k));
    expect(read(rows[0])).toEqual(
      ['30', '.', 'Teal, "dark"', '3', TEXT, 'Zürich', '1'].concat(['42.50', '1.00', '2', '.', '4.00', TEXT]),
    );
    expect(read(rows[2])).toEqual(['.', '.', '', '.', 'Only a name', '', '.', '.', '.', '.', '.', '.', '']);
  });
});

/** What pspp reads from a `.sav`: name → label, label → value labels, rows by name (values trimmed). */
async function readWithPspp(sav: Buffer) {
  const { tables, log } = await readSavWithPspp(sav);
  const labels = new Map(
    (tables.get('Variables') ?? []).slice(1).map((r) => [r[0], r[2]] as [string, string]),
  );
  const valueLabels = valueLabelLines(tables); // variable label → `1=Small 2=Large`
  const rows = dataRows(tables).map((row) => new Map([...row].map(([name, value]) => [name, value.trim()])));
  return { log, labels, valueLabels, rows };
}
