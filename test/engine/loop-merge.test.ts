// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written as QSF files write it
/**
 * Loop & merge in the browser (issue 13 item 2): a static loop of 5 presenting 3 in random order with the
 * merged text, a loop over a question's selected choices, answers kept per loop and exported in
 * `<loop>_` prefixed column groups.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await t?.close();
});

const FRUIT: Record<string, [string, string]> = {
  1: ['apples', 'red'],
  2: ['bananas', 'yellow'],
  3: ['cherries', 'dark red'],
  4: ['dates', 'brown'],
  5: ['elderberries', 'purple'],
};
const DOC = qsf({
  blocks: [
    block('BL_0', ['QID1']),
    block('BL_1', ['QID2'], {
      Looping: 'Static',
      LoopingOptions: {
        Static: Object.fromEntries(Object.entries(FRUIT).map(([id, [a, b]]) => [id, { 1: a, 2: b }])),
        // "Present only 3 of the loops" as the real files write it (docs/engine.md "Loop & merge").
        Randomization: 'Subset',
        TotalRandSubset: 3,
      },
    }),
    block('BL_2', ['QID3'], {
      Looping: 'Question',
      LoopingOptions: {
        Locator: 'q://QID1/ChoiceGroup/SelectedChoices',
        QID: 'QID1',
        ChoiceGroupLocator: 'q://QID1/ChoiceGroup/SelectedChoices',
        Static: { 1: { 2: '' }, 2: { 2: '' }, 3: { 2: '' } },
        Randomization: 'None',
      },
    }),
  ],
  questions: [
    question('QID1', { type: 'MC', selector: 'MAVR', text: 'Which pets?', choices: ['Cat', 'Dog', 'Fish'] }),
    question('QID2', {
      type: 'TE',
      selector: 'SL',
      text: 'Loop ${lm://CurrentLoopNumber}: ${lm://Field/1} (${lm://Field/2})?',
    }),
    question('QID3', { type: 'TE', selector: 'SL', text: 'Name of your ${lm://Field/1}?' }),
  ],
  flow: [blockFlow('BL_0', 'FL_2'), blockFlow('BL_1', 'FL_3'), blockFlow('BL_2', 'FL_4')],
});

const legend = async (page: Page) => (await page.locator('legend').first().textContent()) ?? '';

describe('loop & merge', () => {
  it('presents 3 of 5 static loops with merged text, loops over selected choices, and exports prefixed groups', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${base}/jfe/form/${surveyId}`);
    await page.getByLabel('Cat').check();
    await page.getByLabel('Fish').check();
    await next(page);

    const loops: string[] = [];
    for (let n = 1; n <= 3; n++) {
      const text = await legend(page);
      if (n === 2) {
        await page.reload();
        expect(await legend(page)).toBe(text);
      }
      const id = Object.keys(FRUIT).find((k) => text === `Loop ${n}: ${FRUIT[k]?.[0]} (${FRUIT[k]?.[1]})?`);
      expect(id, text).toBeDefined();
      loops.push(id ?? '');
      await page.getByRole('textbox').fill(`answer ${n}`);
      await next(page);
    }
    expect(new Set(loops).size).toBe(3);
    // The question-based loop: one page per selected pet, with the choice's text merged.
    expect(await legend(page)).toBe('Name of your Cat?');
    await page.getByRole('textbox').fill('Tom');
    await next(page);
    expect(await legend(page)).toBe('Name of your Fish?');
    await page.getByRole('textbox').fill('Nemo');
    await next(page);
    expect(await page.locator('.end').count()).toBe(1);
    expect(await page.content()).not.toContain('${');
    await context.close();

    const { response_id } = await t.database.db
      .selectFrom('engine_sessions')
      .select('response_id')
      .where('survey_id', '=', surveyId)
      .executeTakeFirstOrThrow();
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${response_id}`);
    const values = res.body.result.values as Record<string, unknown>;
    loops.forEach((id, i) => {
      expect(values[`${id}_QID2_TEXT`]).toBe(`answer ${i + 1}`);
    });
    expect(Object.keys(values).filter((k) => k.endsWith('_QID2_TEXT'))).toHaveLength(3);
    expect(values).toMatchObject({ '1_QID3_TEXT': 'Tom', '3_QID3_TEXT': 'Nemo' });

    const csv = await exportCsv(t, org.apiToken, surveyId);
    const row = csv.data[csv.responseIds.indexOf(response_id ?? '')] ?? [];
    const staticColumns = csv.names.filter((n) => /^\d_Q2$/.test(n));
    expect(staticColumns).toEqual(['1_Q2', '2_Q2', '3_Q2', '4_Q2', '5_Q2']);
    const filled = staticColumns.filter((n) => row[csv.names.indexOf(n)] !== '');
    expect(filled.sort()).toEqual(loops.map((id) => `${id}_Q2`).sort());
    expect(csv.importIds[csv.names.indexOf(`${loops[0]}_Q2`)]).toBe(`{"ImportId":"${loops[0]}_QID2_TEXT"}`);
    expect(row[csv.names.indexOf('1_Q3')]).toBe('Tom');
    expect(row[csv.names.indexOf('3_Q3')]).toBe('Nemo');
    expect(row[csv.names.indexOf('2_Q3')]).toBe('');
  });
});
