/**
 * Issue 14 part 2, matrix-like and ranking types: a browser respondent answers matrix text entry,
 * side-by-side with text and dropdown columns, constant sum (with its must-total) and pick-group-rank; the
 * response reads back over the API under the real value keys; the csv's header rows and the .sav's
 * variables (names, types, value labels) follow the real layout (fixtures/exports/README.md, sp-xml.xml).
 */
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportedFile, startExportWorker } from '../exports/exports-helpers.js';
import { dataRows, readSavWithPspp, valueLabelLines } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { typesMatrixSurvey } from './types-matrix-survey.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
let responseId: string;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  worker = startExportWorker(t);
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(typesMatrixSurvey()));
});
afterAll(async () => {
  await worker?.stop();
  await browser?.close();
  await t?.close();
});

/** Answers the survey as a person would, meeting the forced matrix and the must-total on the way. */
async function answerSurvey(page: Page): Promise<void> {
  await page.goto(`${base}/jfe/form/${surveyId}`);
  await next(page);
  expect(await page.locator('#q-QID31 .error').textContent()).toBe('Please answer this question.');
  await page.getByLabel('Monday: Breakfast').fill('Porridge');
  await page.getByLabel('Monday: Lunch').fill('Soup');
  await page.getByLabel('Tuesday: Breakfast').fill('Toast');
  await page.getByLabel('Tuesday: Lunch').fill('Salad, "green"');
  expect(await page.getByLabel('Current job: Tasks').evaluate((el) => el.tagName)).toBe('TEXTAREA');
  await page.getByLabel('Current job: Tasks').fill('Writing\nreviewing');
  await page.getByLabel('Kettle: Quality: Good').check();
  await page.getByLabel('Kettle: Details: Brand').fill('Acme');
  await page.getByLabel('Kettle: Details: Price paid').fill('25');
  await page.getByLabel('Kettle: Where').selectOption({ label: 'Online' });
  await page.getByLabel('Toaster: Details: Brand').fill('Toastmaster');
  await next(page);

  // Constant sum: the total follows the boxes; one that does not reach 100 is refused.
  await page.getByLabel('Rent').fill('50');
  await page.getByLabel('Food').fill('30');
  await page.getByLabel('Fun').fill('10');
  expect(await page.locator('#total-QID34').textContent()).toBe('90');
  await page
    .getByRole('group', { name: 'Books' })
    .getByLabel('Group', { exact: true })
    .selectOption({ label: 'Keep' });
  await page.getByRole('group', { name: 'Books' }).getByLabel('Rank in group').selectOption('2');
  await page
    .getByRole('group', { name: 'Lamp' })
    .getByLabel('Group', { exact: true })
    .selectOption({ label: 'Keep' });
  await page.getByRole('group', { name: 'Lamp' }).getByLabel('Rank in group').selectOption('1');
  await page
    .getByRole('group', { name: 'Chair' })
    .getByLabel('Group', { exact: true })
    .selectOption({ label: 'Give away' });
  await page.getByLabel('Yes').check();
  await page.getByLabel('Work: answer').selectOption({ label: 'Train' });
  await next(page);
  expect(await page.locator('#q-QID34 .error').textContent()).toBe(
    'The numbers must add up to 100 (they add up to 90).',
  );
  expect(await page.getByLabel('Fun').inputValue()).toBe('10'); // the answers given are kept
  await page.getByLabel('Fun').fill('20');
  expect(await page.locator('#total-QID34').textContent()).toBe('100');
  await next(page);
  await page.waitForSelector('.end');
}

const ANSWERS = {
  QID31_1_1: 'Porridge',
  QID31_1_2: 'Soup',
  QID31_2_1: 'Toast',
  QID31_2_2: 'Salad, "green"',
  QID32_1_1: 'Writing\r\nreviewing', // a text area's line break, as browsers send it
  'QID33#1_1': 2,
  'QID33#2_1_1': 'Acme',
  'QID33#2_1_2': '25',
  'QID33#2_2_1': 'Toastmaster',
  'QID33#3_1': 2,
  QID34_1: 50,
  QID34_2: 30,
  QID34_3: 20,
  QID35_0_GROUP_1: 1,
  QID35_0_GROUP_2: 1,
  QID35_1_GROUP_3: 1,
  QID35_G0_1_RANK: 2,
  QID35_G0_2_RANK: 1,
  QID35_G1_3_RANK: 1,
  QID36: 'y',
  QID37_1: 2,
};

describe('matrix-like and ranking types', () => {
  it('are imported as types the engine runs', async () => {
    const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
    const questions = survey.body.result.questions as Record<string, { supported: boolean }>;
    expect(Object.values(questions).map((q) => q.supported)).toEqual(Array(7).fill(true));
  });

  it('a browser respondent answers each; the response reads back under the real value keys', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    try {
      await answerSurvey(await context.newPage());
    } finally {
      await context.close();
    }
    const session = await t.database.db
      .selectFrom('engine_sessions')
      .select('response_id')
      .where('survey_id', '=', surveyId)
      .where('response_id', 'is not', null)
      .executeTakeFirstOrThrow();
    responseId = session.response_id as string;
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { values, labels } = res.body.result;
    const questionValues = Object.fromEntries(Object.entries(values).filter(([k]) => /^QID\d/.test(k)));
    expect(questionValues).toEqual(ANSWERS);
    expect(labels).toMatchObject({
      'QID33#1_1': 'Good',
      'QID33#3_1': 'Online',
      QID35_0_GROUP_1: 'Books',
      QID35_1_GROUP_3: 'Chair',
      QID36: 'Yes',
      QID37_1: 'Train',
    });
  });

  it('a pick-group-rank with two items at the same rank in a group is refused', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      for (const [label, text] of [
        ['Monday: Breakfast', 'a'],
        ['Monday: Lunch', 'b'],
        ['Tuesday: Breakfast', 'c'],
        ['Tuesday: Lunch', 'd'],
      ])
        await page.getByLabel(label as string).fill(text as string);
      await next(page);
      for (const item of ['Books', 'Lamp']) {
        await page
          .getByRole('group', { name: item })
          .getByLabel('Group', { exact: true })
          .selectOption({ label: 'Keep' });
        await page.getByRole('group', { name: item }).getByLabel('Rank in group').selectOption('1');
      }
      await next(page);
      expect(await page.locator('#q-QID35 .error').textContent()).toBe(
        'Give each item in “Keep” a different rank from 1 to 2.',
      );
    } finally {
      await page.close();
    }
  });

  it('the sessions API takes the same answers in its own shape and records the same values', async () => {
    const url = `/API/v3/surveys/${surveyId}/sessions`;
    const created = await t.call(org.apiToken, 'POST', url, { language: 'EN' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { sessionId } = created.body.result;
    const advance = (responses: object) =>
      t.call(org.apiToken, 'POST', `${url}/${sessionId}`, { advance: true, responses });
    const first = await advance({
      QID31: { 1: { 1: 'Porridge', 2: 'Soup' }, 2: { 1: 'Toast', 2: 'Salad, "green"' } },
      QID32: { 1: { 1: 'Writing\r\nreviewing' } },
      QID33: {
        'QID33#1': { 1: { 2: { selected: true } } },
        'QID33#2': { 1: { 1: 'Acme', 2: '25' }, 2: { 1: 'Toastmaster' } },
        'QID33#3': { 1: { 2: { selected: true } } },
      },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const shown = Object.fromEntries(
      (first.body.result.questions as { questionId: string }[]).map((q) => [q.questionId, q]),
    );
    expect(shown.QID34).toMatchObject({ total: 100, choiceOrder: ['1', '2', '3'] });
    expect(shown.QID35).toMatchObject({ groups: ['Keep', 'Give away'] });
    expect(shown.QID36).not.toHaveProperty('groups');
    const page2 = {
      QID34: { 1: 50, 2: 30, 3: 10 },
      QID35: { 1: { group: 0, rank: 2 }, 2: { group: 0, rank: 1 }, 3: { group: 1 } },
      QID36: { 1: { selected: true } },
      QID37: { 1: { 2: { selected: true } } },
    };
    const refused = await advance(page2);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('The numbers must add up to 100 (they add up to 90).');
    const done = await advance({ ...page2, QID34: { 1: 50, 2: 30, 3: 20 } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.result).toMatchObject({ status: 'complete' });
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${done.body.result.responseId}`,
    );
    const values = res.body.result.values as Record<string, unknown>;
    expect(Object.fromEntries(Object.entries(values).filter(([k]) => /^QID\d/.test(k)))).toEqual(ANSWERS);
  });

  describe('exports', () => {
    const exportFile = async (format: string) =>
      (await exportedFile(t, org.apiToken, surveyId, { format })).bytes;

    // Column name, ImportId (row 3), header row 2 and the value, as the real exports lay them out.
    const COLUMNS: [string, string, string, string][] = [
      ['meals_1_1', '{"ImportId":"QID31_1_1"}', 'What did you eat? - Monday - Breakfast', 'Porridge'],
      ['meals_2_2', '{"ImportId":"QID31_2_2"}', 'What did you eat? - Tuesday - Lunch', 'Salad, "green"'],
      [
        'work_1_1',
        '{"ImportId":"QID32_1_1"}',
        'Describe your work - Current job - Tasks',
        'Writing\r\nreviewing',
      ],
      ['appliances#1_1', '{"ImportId":"QID33#1_1"}', 'Your appliances - Quality - Kettle', '2'],
      [
        'appliances#2_1_2',
        '{"ImportId":"QID33#2_1_2"}',
        'Your appliances - Details - Kettle - Price paid',
        '25',
      ],
      [
        'appliances#2_2_2',
        '{"ImportId":"QID33#2_2_2"}',
        'Your appliances - Details - Toaster - Price paid',
        '',
      ],
      ['appliances#3_1', '{"ImportId":"QID33#3_1"}', 'Your appliances - Where - Kettle', '2'],
      ['budget_1', '{"ImportId":"QID34_1"}', 'Split your budget - Rent', '50'],
      ['budget_3', '{"ImportId":"QID34_3"}', 'Split your budget - Fun', '20'],
      [
        'things_0_GROUP_1',
        '{"ImportId":"QID35_0_GROUP","choiceId":"1"}',
        'Sort your things - Keep - Books',
        '1',
      ],
      [
        'things_1_GROUP_1',
        '{"ImportId":"QID35_1_GROUP","choiceId":"1"}',
        'Sort your things - Give away - Books',
        '',
      ],
      ['things_0_2_RANK', '{"ImportId":"QID35_G0_2_RANK"}', 'Sort your things - Keep - Rank - Lamp', '1'],
      [
        'things_1_3_RANK',
        '{"ImportId":"QID35_G1_3_RANK"}',
        'Sort your things - Give away - Rank - Chair',
        '1',
      ],
      ['renting', '{"ImportId":"QID36"}', 'Do you rent?', 'y'],
      ['travel_1', '{"ImportId":"QID37_1"}', 'How do you travel? - Work', '2'],
    ];

    it('csv: the real column names, ImportIds and header texts, and the answers', async () => {
      const rows = parse((await exportFile('csv')).toString('utf8')) as string[][];
      const [names, texts, importIds, data] = rows as [string[], string[], string[], string[]];
      const read = COLUMNS.map(([name]) => {
        const i = names.indexOf(name);
        return [name, importIds[i], texts[i], data[i]];
      });
      expect(read).toEqual(COLUMNS);
      // Every group column of every item, then every rank column, in the order of sp-xml.xml.
      const pgr = names.filter((n) => n.startsWith('things_'));
      expect(pgr).toEqual(
        [
          ...['0_GROUP_1', '0_GROUP_2', '0_GROUP_3', '1_GROUP_1', '1_GROUP_2', '1_GROUP_3'],
          ...['0_1_RANK', '0_2_RANK', '0_3_RANK', '1_1_RANK', '1_2_RANK', '1_3_RANK'],
        ].map((s) => `things_${s}`),
      );
      expect(names.filter((n) => n.startsWith('meals_'))).toEqual([
        'meals_1_1',
        'meals_1_2',
        'meals_2_1',
        'meals_2_2',
      ]);
    });

    it('spss: text cells are strings, numbers numeric, letter recodes strings, group value labels', async () => {
      const { tables, log } = await readSavWithPspp(await exportFile('spss'));
      expect(log.split('\n').filter((line) => /warning|error/i.test(line))).toEqual([]);
      const [header = [], ...variables] = tables.get('Variables') ?? [];
      const format = header.indexOf('Print Format');
      const formats = new Map(variables.map((v) => [v[0], v[format]]));
      const pick = (names: string[]) => names.map((n) => [n, formats.get(n)]);
      // Strings as wide as their longest answer (string-widths.ts): `Porridge`, the two lines, `Acme`, `y`.
      expect(pick(['meals_1_1', 'work_1_1', 'appliances#2_1_1', 'renting'])).toEqual([
        ['meals_1_1', 'A8'],
        ['work_1_1', 'A18'],
        ['appliances#2_1_1', 'A4'],
        ['renting', 'A1'],
      ]);
      expect(
        pick(['appliances#1_1', 'appliances#3_1', 'budget_1', 'things_0_GROUP_1', 'things_0_1_RANK']),
      ).toEqual([
        ['appliances#1_1', 'F40.0'],
        ['appliances#3_1', 'F40.0'],
        ['budget_1', 'F40.2'],
        ['things_0_GROUP_1', 'F40.0'],
        ['things_0_1_RANK', 'F40.2'],
      ]);
      const valueLabels = valueLabelLines(tables); // variable label → `1=Small 2=Large`
      expect(valueLabels.get('Your appliances - Where - Kettle')).toBe('1=Shop 2=Online');
      expect(valueLabels.get('How do you travel? - Work')).toBe('1=Car 2=Train');
      expect(valueLabels.get('Sort your things - Keep - Books')).toBe('1=Books');
      expect(valueLabels.get('Sort your things - Give away - Chair')).toBe('1=Chair');
      expect(valueLabels.has('Do you rent?')).toBe(false); // a string has no value labels
      const [row] = dataRows(tables).map((r) => new Map([...r].map(([k, v]) => [k, v.trim()])));
      expect(
        ['meals_1_1', 'appliances#2_1_1', 'budget_3', 'things_0_2_RANK', 'renting'].map((n) => row?.get(n)),
      ).toEqual(['Porridge', 'Acme', '20.00', '1.00', 'y']);
    });
  });
});
