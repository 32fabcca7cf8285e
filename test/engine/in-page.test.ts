/**
 * In-page display logic in the browser (issue 13 item 5): the follow-up appears and disappears on the same
 * page without a page load; without JavaScript the page posts back and shows it; a hidden follow-up is
 * neither validated nor recorded.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let surveyId: string;

const DOC = qsf({
  blocks: [block('BL_1', ['QID1', 'QID2']), block('BL_2', ['QID3'])],
  questions: [
    question('QID1', { type: 'MC', selector: 'SAVR', text: 'Do you smoke?', choices: ['Yes', 'No'] }),
    question('QID2', {
      type: 'TE',
      selector: 'SL',
      text: 'How many a day?',
      force: 'ON',
      extra: { DisplayLogic: { ...selected('QID1', '1'), inPage: true } },
    }),
    question('QID3', { type: 'TE', selector: 'SL', text: 'Anything else?' }),
  ],
  flow: [blockFlow('BL_1', 'FL_2'), blockFlow('BL_2', 'FL_3')],
});

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function respondent(options: { javaScriptEnabled: boolean }, run: (page: Page) => Promise<void>) {
  const context: BrowserContext = await browser.newContext(options);
  context.setDefaultTimeout(10_000);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

const followUp = (page: Page) => page.getByLabel('How many a day?');

async function finish(page: Page): Promise<Record<string, unknown>> {
  await page.getByLabel('Anything else?').fill('no');
  await next(page);
  expect(await page.locator('.end').count()).toBe(1);
  const rows = await t.database.db
    .selectFrom('engine_sessions')
    .select(['response_id', 'finished_at'])
    .where('survey_id', '=', surveyId)
    .where('status', '=', 'complete')
    .orderBy('finished_at', 'desc')
    .execute();
  const res = await t.call(
    org.apiToken,
    'GET',
    `/API/v3/surveys/${surveyId}/responses/${rows[0]?.response_id}`,
  );
  return res.body.result;
}

describe('in-page display logic', () => {
  it('shows and hides the follow-up without a page load, and records it when shown', async () => {
    await respondent({ javaScriptEnabled: true }, async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(await followUp(page).isVisible()).toBe(false);
      let loads = 0;
      page.on('load', () => {
        loads += 1;
      });
      await page.getByLabel('Yes').check();
      await expect.poll(() => followUp(page).isVisible()).toBe(true);
      await page.getByLabel('No').check();
      await expect.poll(() => followUp(page).isVisible()).toBe(false);
      await page.getByLabel('Yes').check();
      await expect.poll(() => followUp(page).isVisible()).toBe(true);
      expect(loads).toBe(0);
      // Shown: validated (forced).
      await next(page);
      expect(await page.locator('#q-QID2 .error').textContent()).toBe('Please answer this question.');
      await followUp(page).fill('12');
      await next(page);
      const result = await finish(page);
      expect(result.values).toMatchObject({ QID1: 1, QID2_TEXT: '12' });
      expect(result.displayedFields).toContain('QID2_TEXT');
    });
  });

  it('neither validates nor records the follow-up while its condition does not hold', async () => {
    await respondent({ javaScriptEnabled: true }, async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByLabel('No').check();
      await next(page);
      const result = await finish(page);
      expect(result.values).toMatchObject({ QID1: 2 });
      expect((result.values as Record<string, unknown>).QID2_TEXT).toBeUndefined();
      expect(result.displayedFields).not.toContain('QID2_TEXT');
    });
  });

  it('without JavaScript, posts back and shows the follow-up on the same page', async () => {
    await respondent({ javaScriptEnabled: false }, async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(await followUp(page).isVisible()).toBe(false);
      await page.getByLabel('Yes').check();
      await next(page);
      // The same page again: the answer kept, the follow-up shown, no error yet.
      expect(await page.getByLabel('Yes').isChecked()).toBe(true);
      expect(await followUp(page).isVisible()).toBe(true);
      expect(await page.locator('.error').count()).toBe(0);
      await followUp(page).fill('3');
      await next(page);
      const result = await finish(page);
      expect(result.values).toMatchObject({ QID1: 1, QID2_TEXT: '3' });
    });
  });
});
