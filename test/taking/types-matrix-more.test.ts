/**
 * Issue 14 leftovers, matrix family: a browser respondent answers a profile matrix (each row its own
 * scale), constant sum and rank order matrices and text entry matrices validated cell by cell, and sees
 * carried forward only the choices it was shown (`DisplayedChoices`, into choices and matrix rows) and the
 * choices it selected as a matrix's columns. Wrong input is refused with the message at the question (and
 * at the cell); the response reads back over the API; the csv's header rows and the .sav's variables
 * (names, types, value labels) follow the real layout; axe finds nothing serious on the page with errors.
 */
import { parse } from 'csv-parse/sync';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { seriousViolations } from '../engine/axe.js';
import {
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  newResponseId,
  next,
} from '../engine/engine-helpers.js';
import { exportedFile, startExportWorker } from '../exports/exports-helpers.js';
import { dataRows, readSavWithPspp, valueLabelLines } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { typesMatrixMoreSurvey } from './types-matrix-more-survey.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  worker = startExportWorker(t);
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(typesMatrixMoreSurvey()));
});
afterAll(async () => {
  await worker?.stop();
  await browser?.close();
  await t?.close();
});

const ANSWERS = {
  QID1_1: 1,
  QID1_3: 1,
  QID2_1: 2,
  QID2_2: 3,
  QID3_1_1: 60,
  QID3_2_1: 40,
  QID3_1_2: 25.5,
  QID3_2_2: 74.5,
  QID4_1_1: 2,
  QID4_2_1: 1,
  QID4_3_1: 3,
  QID5_1_1: 'me@example.com',
  QID6_1_1: '42',
  QID7: 3,
  QID8_x1: 1,
  QID8_x2: 2,
  QID8_x3: 1,
  QID9_1: 1,
  QID9_2: 3,
};

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

/** Page 2 answered with a mistake in each checked type; the page comes back with every message. */
async function answerWithMistakes(page: Page): Promise<void> {
  // Profile: each row offers its own scale.
  expect(await texts(page, '#q-QID2 .profile-row label')).toEqual(['Small', 'Large', 'Red', 'Green', 'Blue']);
  await page.getByRole('group', { name: 'Size' }).getByLabel('Large').check();
  await page.getByRole('group', { name: 'Colour' }).getByLabel('Blue').check();
  await page.getByLabel('Rent: This year').fill('60');
  await page.getByLabel('Food: This year').fill('30');
  expect(await page.locator('[id="total-QID3-c1"]').textContent()).toBe('90');
  await page.getByLabel('Rent: Next year').fill('25.5');
  await page.getByLabel('Food: Next year').fill('74.5');
  for (const [fruit, rank] of [
    ['Apple', '2'],
    ['Pear', '2'],
    ['Plum', '3'],
  ] as const)
    await page.getByLabel(`${fruit}: Taste`).selectOption(rank);
  await page.getByLabel('Home: E-mail').fill('me at example');
  await page.getByLabel('Work: E-mail').fill('not mail');
  await page.getByLabel('You: Age').fill('forty');
  // Carried forward: the choices shown on page 1 (Water was hidden), and the selected ones as columns.
  expect(await texts(page, '#q-QID7 label')).toEqual(['Tea', 'Coffee', 'Juice']);
  expect(await texts(page, '#q-QID8 th[scope=row]')).toEqual(['Tea', 'Coffee', 'Juice']);
  expect(await texts(page, '#q-QID9 th[scope=col]')).toEqual(['Tea', 'Juice']);
  await page.getByLabel('Juice', { exact: true }).check();
  await page.getByLabel('Tea: Hot').check();
  await page.getByLabel('Coffee: Cold').check();
  await page.getByLabel('Juice: Hot').check();
  await page.getByLabel('Morning: Tea').check();
  await page.getByLabel('Evening: Juice').check();
  await next(page);
}

describe('matrix family leftovers', () => {
  it('are imported as types the engine runs', async () => {
    const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
    const questions = survey.body.result.questions as Record<string, { supported: boolean }>;
    expect(Object.values(questions).map((q) => q.supported)).toEqual(Array(9).fill(true));
  });

  it('a browser respondent answers each; mistakes are refused at the question and the cell', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    try {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(await texts(page, '#q-QID1 label')).toEqual(['Tea', 'Coffee', 'Juice']);
      await page.getByLabel('Tea').check();
      await page.getByLabel('Juice').check();
      await next(page);
      await answerWithMistakes(page);

      expect(await page.title()).toMatch(/^Error:/);
      expect(await page.locator('#q-QID3 > .error').textContent()).toBe(
        'The numbers in “This year” must add up to 100 (they add up to 90).',
      );
      expect(await page.locator('#q-QID4 > .error').textContent()).toBe(
        'Give each row in “Taste” a different rank from 1 to 3.',
      );
      expect(await page.locator('#q-QID5 > .error').textContent()).toBe(
        'Home, E-mail: Please enter a valid email address. (1 more box marked below)',
      );
      expect(await page.locator('#q-QID6 > .error').textContent()).toBe(
        'You, Age: Please enter a number between 0 and 120.',
      );
      // Each refused box is marked and says why beside it; the box taken is not.
      const home = page.getByLabel('Home: E-mail');
      expect(await home.getAttribute('aria-invalid')).toBe('true');
      expect(await home.getAttribute('aria-describedby')).toBe('err-f-QID5_1_1');
      expect(await page.locator('#err-f-QID5_2_1').textContent()).toBe('Please enter a valid email address.');
      expect(await page.locator('#err-f-QID6_1_1').textContent()).toBe(
        'Please enter a number between 0 and 120.',
      );
      expect(await page.getByLabel('Partner: Age').getAttribute('aria-invalid')).toBeNull();
      expect(await page.getByLabel('Work: E-mail').inputValue()).toBe('not mail'); // kept as given
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.getByLabel('Food: This year').fill('40');
      expect(await page.locator('[id="total-QID3-c1"]').textContent()).toBe('100');
      await page.getByLabel('Pear: Taste').selectOption('1');
      await home.fill('me@example.com');
      await page.getByLabel('Work: E-mail').fill('');
      await page.getByLabel('You: Age').fill('42');
      await next(page);
      await page.waitForSelector('.end');
    } finally {
      await context.close();
    }
    const responseId = await newResponseId(t, surveyId, []);
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { values, labels } = res.body.result;
    expect(Object.fromEntries(Object.entries(values).filter(([k]) => /^QID\d/.test(k)))).toEqual(ANSWERS);
    expect(labels).toMatchObject({
      QID2_1: 'Large',
      QID2_2: 'Blue',
      QID7: 'Juice',
      QID8_x2: 'Cold',
      QID9_1: 'Tea',
      QID9_2: 'Juice',
    });
  });

  describe('exports', () => {
    const exportFile = async (format: string) =>
      (await exportedFile(t, org.apiToken, surveyId, { format })).bytes;

    // Column name, ImportId (row 3), header row 2 and the value.
    const COLUMNS: [string, string, string, string][] = [
      ['shirt_1', '{"ImportId":"QID2_1"}', 'Describe your shirt - Size', '2'],
      ['shirt_2', '{"ImportId":"QID2_2"}', 'Describe your shirt - Colour', '3'],
      ['budget_1_1', '{"ImportId":"QID3_1_1"}', 'Split your budget - Rent - This year', '60'],
      ['budget_2_2', '{"ImportId":"QID3_2_2"}', 'Split your budget - Food - Next year', '74.5'],
      ['fruit_3_1', '{"ImportId":"QID4_3_1"}', 'Rank the fruit - Plum - Taste', '3'],
      ['fruit_1_2', '{"ImportId":"QID4_1_2"}', 'Rank the fruit - Apple - Price', ''],
      ['emails_1_1', '{"ImportId":"QID5_1_1"}', 'Your e-mail addresses - Home - E-mail', 'me@example.com'],
      ['ages_1_1', '{"ImportId":"QID6_1_1"}', 'Ages in your household - You - Age', '42'],
      ['favourite', '{"ImportId":"QID7"}', 'Which is your favourite?', '3'],
      ['hotcold_x4', '{"ImportId":"QID8_x4"}', 'Hot or cold? - Water', ''],
      ['when_2', '{"ImportId":"QID9_2"}', 'What do you drink when? - Evening', '3'],
    ];

    it('csv: the real column names, ImportIds and header texts, and the answers', async () => {
      const rows = parse((await exportFile('csv')).toString('utf8')) as string[][];
      const [names, header, importIds, data] = rows as [string[], string[], string[], string[]];
      const read = COLUMNS.map(([name]) => {
        const i = names.indexOf(name);
        return [name, importIds[i], header[i], data[i]];
      });
      expect(read).toEqual(COLUMNS);
      expect(names.filter((n) => /^(shirt|budget|fruit)_/.test(n))).toEqual([
        'shirt_1',
        'shirt_2',
        ...['budget_1_1', 'budget_1_2', 'budget_2_1', 'budget_2_2'],
        ...['fruit_1_1', 'fruit_1_2', 'fruit_2_1', 'fruit_2_2', 'fruit_3_1', 'fruit_3_2'],
      ]);
      expect(names.filter((n) => n.startsWith('when_'))).toEqual(['when_1', 'when_2']);
    });

    it('spss: profile rows labelled by their own scale, numbers numeric, text cells strings', async () => {
      const { tables, log } = await readSavWithPspp(await exportFile('spss'));
      expect(log.split('\n').filter((line) => /warning|error/i.test(line))).toEqual([]);
      const [head = [], ...variables] = tables.get('Variables') ?? [];
      const format = head.indexOf('Print Format');
      const formats = new Map(variables.map((v) => [v[0], v[format]]));
      const pick = (names: string[]) => names.map((n) => [n, formats.get(n)]);
      expect(
        pick(['shirt_1', 'budget_1_2', 'fruit_2_1', 'favourite', 'when_1', 'emails_1_1', 'ages_1_1']),
      ).toEqual([
        ['shirt_1', 'F40.0'],
        ['budget_1_2', 'F40.2'],
        ['fruit_2_1', 'F40.2'],
        ['favourite', 'F40.0'],
        ['when_1', 'F40.0'],
        ['emails_1_1', 'A14'],
        ['ages_1_1', 'A2'],
      ]);
      const valueLabels = valueLabelLines(tables); // variable label → `1=Small 2=Large`
      expect(valueLabels.get('Describe your shirt - Size')).toBe('1=Small 2=Large');
      expect(valueLabels.get('Describe your shirt - Colour')).toBe('1=Red 2=Green 3=Blue');
      expect(valueLabels.get('What do you drink when? - Morning')).toBe('1=Tea 2=Coffee 3=Juice 4=Water');
      expect(valueLabels.has('Split your budget - Rent - This year')).toBe(false);
      const [row] = dataRows(tables).map((r) => new Map([...r].map(([k, v]) => [k, v.trim()])));
      expect(['shirt_2', 'budget_1_2', 'fruit_2_1', 'when_2', 'emails_1_1'].map((n) => row?.get(n))).toEqual([
        '3',
        '25.50',
        '1.00',
        '3',
        'me@example.com',
      ]);
    });
  });
});
