import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  engineFixture,
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
  unlabelledControls,
} from './engine-helpers.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const fitsTheScreen = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('accessible survey pages', () => {
  it('can be taken with the keyboard alone on a phone-width screen, every control labelled', async () => {
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const context = await browser.newContext({ viewport: { width: 360, height: 640 }, hasTouch: true });
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(await page.locator('progress').getAttribute('value')).toBe('0');
      expect(await unlabelledControls(page)).toEqual([]);
      expect(await fitsTheScreen(page)).toBe(true);

      // Submitting empty with Enter lands focus on the error summary.
      await page.keyboard.press('Tab');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('summary');
      await page.keyboard.press('Tab'); // the summary's link to the question
      await page.keyboard.press('Tab'); // the first choice
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('1');
      await page.keyboard.press('Space');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

      await page.keyboard.press('Tab');
      await page.keyboard.type('Rex');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);

      expect(await unlabelledControls(page)).toEqual([]);
      expect(await fitsTheScreen(page)).toBe(true);
      expect(Number(await page.locator('progress').getAttribute('value'))).toBeGreaterThan(50);
      await page.getByRole('radio', { name: 'Service: Good' }).check();
      await page.getByRole('radio', { name: 'Price: Good' }).check();
      await page.getByLabel('Any comments?').fill('None');
      await next(page);
      expect(await page.locator('.end').textContent()).toContain('Thank you');
    } finally {
      await context.close();
    }
    const [response] = await t.database.db
      .selectFrom('responses')
      .selectAll()
      .where('survey_id', '=', surveyId)
      .execute();
    expect(JSON.parse(response?.values ?? '{}')).toMatchObject({
      QID1: 1,
      QID2_TEXT: 'Rex',
      QID3_1: 1,
      QID5_TEXT: 'None',
    });
  });
});
