/**
 * Issue 14 acceptance, for the matrix-like and ranking types: each question is photographed at 1280 px
 * and at 390 px, and every label, legend and row heading in it is visible, inside the screen and not
 * covered by another element (the text a person reads to answer it).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { typesMatrixSurvey } from './types-matrix-survey.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let surveyId: string;
const SHOTS = join(tmpdir(), 'fieldwork-types-matrix-screens');

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(typesMatrixSurvey()));
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Texts of the question's labels, legend and row headings that a person cannot see whole. */
const hiddenTexts = (questionId: string) => `(() => {
  const problems = [];
  for (const el of document.querySelectorAll('#q-${questionId} :is(label, legend, th[scope=row], .pgr-name, .cs-total)')) {
    const box = el.getBoundingClientRect();
    const text = el.textContent.trim();
    if (!el.checkVisibility() || box.width === 0 || box.height === 0) { problems.push(text + ': not shown'); continue; }
    if (box.left < 0 || box.right > window.innerWidth) { problems.push(text + ': off the screen'); continue; }
    el.scrollIntoView({ block: 'center' });
    const again = el.getBoundingClientRect();
    const top = document.elementFromPoint(again.left + Math.min(4, again.width / 2), again.top + again.height / 2);
    if (top && top !== el && !el.contains(top) && !top.contains(el)) problems.push(text + ': covered');
  }
  return problems;
})()`;

describe('matrix-like and ranking types, photographed', () => {
  it.each([
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ])('every label of every question is visible (%s)', async (name, width, height) => {
    const context = await browser.newContext({ viewport: { width, height } });
    context.setDefaultTimeout(10_000);
    const problems: Record<string, string[]> = {};
    try {
      const page = await context.newPage();
      await page.goto(`${base}/jfe/form/${surveyId}`);
      const pages = [
        ['QID31', 'QID32', 'QID33'],
        ['QID34', 'QID35', 'QID36', 'QID37'],
      ];
      for (const [i, ids] of pages.entries()) {
        if (i > 0) {
          for (const [label, text] of [
            ['Monday: Breakfast', 'a'],
            ['Monday: Lunch', 'b'],
            ['Tuesday: Breakfast', 'c'],
            ['Tuesday: Lunch', 'd'],
          ])
            await page.getByLabel(label as string).fill(text as string);
          await next(page);
        }
        for (const id of ids) {
          const shot = await page.locator(`#q-${id}`).screenshot();
          expect(shot.subarray(1, 4).toString()).toBe('PNG');
          writeFileSync(join(SHOTS, `${name}-${id}.png`), shot);
          problems[id] = (await page.evaluate(hiddenTexts(id))) as string[];
        }
      }
      // The check sees a label pushed off the screen and one covered by another element.
      await page.evaluate(() => {
        (document.querySelector('#q-QID35 .pgr-name') as HTMLElement).style.marginLeft = '2000px';
        const cover = document.createElement('div');
        cover.style.cssText = 'position:fixed;inset:0;background:#fff';
        document.querySelector('#q-QID34')?.append(cover);
      });
      expect(await page.evaluate(hiddenTexts('QID35'))).toContain('Books: off the screen');
      expect(await page.evaluate(hiddenTexts('QID36'))).toEqual([
        'Do you rent?: covered',
        'Yes: covered',
        'No: covered',
      ]);
    } finally {
      await context.close();
    }
    expect(Object.keys(problems)).toHaveLength(7);
    expect(problems).toEqual(Object.fromEntries(Object.keys(problems).map((id) => [id, []])));
  });
});
