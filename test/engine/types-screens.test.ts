/**
 * Issue 14 acceptance: every question type of the every-type survey (every-type-survey.ts: among them
 * the profile, constant sum and rank order matrices, validated text matrices, carry-forward into choices,
 * matrix rows and columns, and the map types: heat map, on/off and like/dislike hot spots, polygon
 * regions), photographed at 1280 px and at 390 px. The PNGs go to a temporary directory; the check is
 * that a person can read each question: its text and every label, legend and row or column heading that
 * is meant to be seen has a size, lies within the screen's width, is not cut off by a scrolling or
 * clipping box around it, and is not covered by another element.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  BROWSER_WALK_TIMEOUT,
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
} from './engine-helpers.js';
import { everyTypeSurvey } from './every-type-survey.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let everyType: string;
/** The photographs, kept for a person to look at (outside the repository). */
const SHOTS = join(tmpdir(), 'fieldwork-types-screens');

/** The questions a page draws (timing and meta info draw nothing). */
const drawnQuestions = (doc: { SurveyElements: unknown[] }) =>
  (doc.SurveyElements as { Element: string; Payload: { QuestionID: string; QuestionType: string } }[])
    .filter((e) => e.Element === 'SQ' && !['Timing', 'Meta'].includes(e.Payload.QuestionType))
    .map((e) => e.Payload.QuestionID)
    .sort();

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  everyType = await importSurvey(t, org.apiToken, JSON.stringify(everyTypeSurvey()));
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/**
 * The texts of a question a person cannot read whole: its text (legend, or a descriptive text), labels,
 * legends, row and column headings (on a phone, each matrix cell's column label), a profile matrix's row
 * names and the pick-group-rank and constant-sum texts, leaving out what is hidden on purpose for screen
 * readers and empty headings.
 */
const unreadable = (id: string) => `(() => {
  const question = document.getElementById('q-${id}');
  if (!question) return { read: 0, problems: ['${id}: not on the page'] };
  const texts = question.matches('.descriptive') ? [question]
    : [...question.querySelectorAll(':is(legend, label, th[scope], .pgr-name, .profile-name, .cs-total, td[data-label])')];
  // Hidden on purpose, for screen readers: clipped to nothing (.visually-hidden, a phone's matrix head).
  const forScreenReaders = (el) => {
    for (let up = el; up; up = up.parentElement) if (getComputedStyle(up).clip === 'rect(0px, 0px, 0px, 0px)') return true;
    return false;
  };
  const problems = [];
  let read = 0;
  for (const el of texts) {
    // A phone's matrix cell shows its column's label before the control (td::before, attr(data-label)).
    // A constant sum's total is read by its own text (the sum so far), at every width.
    const cell = el.matches('td[data-label]:not(.cs-total)');
    if (cell && getComputedStyle(el, '::before').content === 'none') continue;
    const text = cell ? el.getAttribute('data-label').trim() : el.textContent.trim();
    if (text === '' || forScreenReaders(el)) continue;
    read++;
    // Down the page to it, never sideways: a text a person must scroll sideways to is off the screen.
    window.scrollTo(0, window.scrollY + el.getBoundingClientRect().top - window.innerHeight / 2);
    const box = el.getBoundingClientRect();
    if (!el.checkVisibility() || box.width < 1 || box.height < 1) { problems.push(text + ': not shown'); continue; }
    if (box.left < -0.5 || box.right > document.documentElement.clientWidth + 0.5) { problems.push(text + ': off the screen'); continue; }
    let clipped = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible' && style.clipPath === 'none') continue;
      const outer = up.getBoundingClientRect();
      if (box.left < outer.left - 0.5 || box.right > outer.right + 0.5 || box.top < outer.top - 0.5 || box.bottom > outer.bottom + 0.5) clipped = true;
    }
    // Its own text cut by its width (overflow hidden, an ellipsis).
    const own = getComputedStyle(el);
    if (own.overflowX !== 'visible' && el.scrollWidth > el.clientWidth + 1) clipped = true;
    if (clipped) { problems.push(text + ': cut off'); continue; }
    const top = document.elementFromPoint(box.left + Math.min(4, box.width / 2), box.top + box.height / 2);
    if (top && top !== el && !el.contains(top) && !top.contains(el)) problems.push(text + ': covered');
  }
  return { read, problems };
})()`;

type Reading = { read: number; problems: string[] };
const problemsOf = async (page: Page, id: string) =>
  ((await page.evaluate(unreadable(id))) as Reading).problems;

/** Photographs each question on the page and notes what cannot be read. */
async function photograph(
  page: Page,
  width: string,
  problems: Record<string, string[]>,
  read: Record<string, number>,
): Promise<void> {
  const ids = await page.$$eval('form [id^="q-"]:not([hidden])', (els) => els.map((el) => el.id.slice(2)));
  for (const id of ids) {
    const shot = await page.locator(`#q-${id}`).screenshot();
    expect(shot.subarray(1, 4).toString()).toBe('PNG');
    writeFileSync(join(SHOTS, `${width}-${id}.png`), shot);
    const reading = (await page.evaluate(unreadable(id))) as Reading;
    problems[id] = reading.problems;
    read[id] = reading.read;
  }
}

/**
 * The every-type survey's seven pages, answered just enough to move on (axe-every-type.test.ts): on the
 * fifth, two drinks, carried forward to the sixth as choices, matrix rows and matrix columns.
 */
async function everyTypePages(page: Page, shoot: () => Promise<void>): Promise<void> {
  await page.goto(`${base}/jfe/form/${everyType}`);
  await shoot();
  await page.getByRole('radio', { name: 'Apple' }).check();
  await next(page);
  await shoot();
  await page.getByLabel('How old are you?').fill('42');
  await next(page);
  await shoot();
  await next(page);
  await page.getByRole('button', { name: 'Continue without answering' }).click();
  await page.waitForSelector('#q-QID66');
  await shoot();
  await next(page);
  await shoot();
  await page.getByLabel('Tea', { exact: true }).check();
  await page.getByLabel('Juice', { exact: true }).check();
  await next(page);
  await shoot();
  await next(page);
  await page.locator('#q-QID82 .map img').waitFor();
  await shoot();
}

describe('every question type, photographed', { timeout: BROWSER_WALK_TIMEOUT }, () => {
  it.each([
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ])('every question’s text and labels are readable (%s)', async (name, width, height) => {
    const context = await browser.newContext({ viewport: { width, height } });
    context.setDefaultTimeout(10_000);
    const problems: Record<string, string[]> = {};
    const read: Record<string, number> = {};
    try {
      const page = await context.newPage();
      const shoot = () => photograph(page, name, problems, read);
      await everyTypePages(page, shoot);

      // On the maps' page, the check sees a label cut off by a scrolling box, one off the screen and a covered legend.
      await page.evaluate(() => {
        const label = document.querySelector('#q-QID80 .choice label') as HTMLElement;
        label.style.cssText = 'flex:none;white-space:nowrap';
        label.parentElement?.style.setProperty('overflow', 'hidden');
        label.parentElement?.style.setProperty('width', '40px');
        const other = document.querySelectorAll('#q-QID80 .choice label')[1] as HTMLElement;
        other.style.cssText = 'overflow:hidden;white-space:nowrap;max-width:30px';
        (document.querySelector('#q-QID81 .hs-region legend') as HTMLElement).style.marginLeft = '3000px';
        const cover = document.createElement('div');
        cover.style.cssText = 'position:fixed;inset:0;background:#fff';
        document.querySelector('#q-QID82')?.append(cover);
      });
      const seen = await problemsOf(page, 'QID80');
      expect(seen).toContain('Left window: cut off');
      expect(seen).toContain('Right window: cut off');
      expect(await problemsOf(page, 'QID81')).toContain('Left display: off the screen');
      expect(await problemsOf(page, 'QID82')).toContain('Where would you sit?: covered');
    } finally {
      await context.close();
    }
    const expected = drawnQuestions(everyTypeSurvey());
    expect(expected).toEqual(expect.arrayContaining(['QID80', 'QID81', 'QID82', 'QID91', 'QID92', 'QID99']));
    expect(Object.keys(problems).sort()).toEqual(expected);
    expect(problems).toEqual(Object.fromEntries(expected.map((id) => [id, []])));
    // Every question had its text read, and choices or rows beside it: a matrix's column labels too.
    expect(Object.entries(read).filter(([, n]) => n < 1)).toEqual([]);
    expect(read.QID11).toBeGreaterThanOrEqual(width < 400 ? 1 + 2 + 6 : 1 + 2 + 3);
    // The text, then each region's legend and its three states' labels.
    expect(read.QID81).toBe(1 + 2 * 4);
    // A profile matrix: the text, each row's name and its own scale's labels; a constant sum matrix: the
    // text, column and row headings, "Total" and each column's total; carried forward: the selected
    // choices as columns.
    expect(read.QID92).toBe(1 + 2 + 5);
    expect(read.QID93).toBeGreaterThanOrEqual(1 + 2 + 2 + 1 + 2);
    expect(read.QID99).toBeGreaterThanOrEqual(1 + 2 + 2);
  });
});
