/**
 * Issue 14 part 2, carry-forward: a matrix's rows carried from another question's selected choices and a
 * question offering all of another's choices; the response records them under the carried ids (`x1`) the
 * real exports use (fixtures/exports/sp-xml.xml `QID28_x1`), and the csv names its columns so.
 */
import { parse } from 'csv-parse/sync';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportedFile, startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, newResponseId, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

const carried = (from: string, what: string) => ({
  DynamicChoices: { DynamicType: 'ChoiceGroup', Type: 'Dynamic', Locator: `q://${from}/ChoiceGroup/${what}` },
  Choices: {},
  ChoiceOrder: [],
});

const SURVEY = qsf({
  blocks: [block('BL_carryforward0001', ['QID1', '|', 'QID2', 'QID3'])],
  flow: [blockFlow('BL_carryforward0001', 'FL_2')],
  questions: [
    question('QID1', {
      type: 'MC',
      selector: 'MAVR',
      text: 'Which colours do you wear?',
      choices: ['Red', 'Blue', 'Green'],
      extra: { DataExportTag: 'colours' },
    }),
    question('QID2', {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'SingleAnswer',
      text: 'How often?',
      answers: ['Rarely', 'Often'],
      extra: { DataExportTag: 'often', ...carried('QID1', 'SelectedChoices') },
    }),
    question('QID3', {
      type: 'MC',
      selector: 'SAVR',
      text: 'Which is your favourite?',
      extra: { DataExportTag: 'favourite', ...carried('QID1', 'AllChoices') },
    }),
  ],
});

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
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(SURVEY));
});
afterAll(async () => {
  await worker?.stop();
  await browser?.close();
  await t?.close();
});

describe('carry-forward', () => {
  it('carries selected choices into matrix rows and all choices into a question, recorded as x<id>', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByLabel('Red').check();
      await page.getByLabel('Green').check();
      await next(page);
      // Only the chosen colours are rows; the favourite offers all three.
      expect(await page.locator('#q-QID2 th[scope=row]').allTextContents()).toEqual(['Red', 'Green']);
      expect(await page.locator('#q-QID3 label').allTextContents()).toEqual(['Red', 'Blue', 'Green']);
      await page.getByLabel('Red: Often').check();
      await page.getByLabel('Green: Rarely').check();
      await page.getByLabel('Blue').check();
      await next(page);
      await page.waitForSelector('.end');
    } finally {
      await page.close();
    }
    const responseId = await newResponseId(t, surveyId, []);
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { values, labels } = res.body.result;
    const answers = Object.fromEntries(Object.entries(values).filter(([k]) => /^QID\d/.test(k)));
    expect(answers).toEqual({ QID1_1: 1, QID1_3: 1, QID2_x1: 2, QID2_x3: 1, QID3: 2 });
    expect(labels).toMatchObject({ QID2_x1: 'Often', QID2_x3: 'Rarely', QID3: 'Blue' });
  });

  it('the csv has a column for every choice that can be carried, named x<id>', async () => {
    const text = (await exportedFile(t, org.apiToken, surveyId, { format: 'csv' })).bytes.toString('utf8');
    const [names, texts, importIds, data] = parse(text) as string[][];
    const columns = (names ?? []).flatMap((name, i) =>
      /^(often|favourite)/.test(name) ? [[name, texts?.[i], importIds?.[i], data?.[i]]] : [],
    );
    expect(columns).toEqual([
      ['often_x1', 'How often? - Red', '{"ImportId":"QID2_x1"}', '2'],
      ['often_x2', 'How often? - Blue', '{"ImportId":"QID2_x2"}', ''],
      ['often_x3', 'How often? - Green', '{"ImportId":"QID2_x3"}', '1'],
      ['favourite', 'Which is your favourite?', '{"ImportId":"QID3"}', '2'],
    ]);
  });
});
