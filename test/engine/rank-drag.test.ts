/**
 * Rank order by dragging (`RO`/`DND`, web/views/rank-board.ts) in Debian's chromium: with the mouse at
 * 1280 px and with touch at 390 px the items are reordered in the list, which writes every item's rank
 * select; the keyboard still answers through the selects, which the list follows; without the script the
 * selects alone submit. Each response reads back over the API with the ranks as dragged.
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { dropPoint, dragWithMouse as mouseDrag, dragWithTouch as touchDrag } from './drag-gestures.js';
import { type BrowserSurvey, next, openBrowserSurvey, respondFromLink } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let taking: BrowserSurvey;

const survey = qsf({
  blocks: [block('BL_rankdrag00000001', ['QID1', 'QID2'])],
  flow: [blockFlow('BL_rankdrag00000001', 'FL_2')],
  questions: [
    question('QID1', {
      type: 'RO',
      selector: 'DND',
      sub: 'TX',
      text: 'Rank these drinks',
      choices: ['Tea', 'Coffee', 'Juice'],
    }),
    // Another sub-type on the same page keeps its selects alone.
    question('QID2', {
      type: 'RO',
      selector: 'RB',
      sub: 'TX',
      text: 'Rank these seasons',
      choices: ['Summer', 'Winter'],
    }),
  ],
});

beforeAll(async () => {
  taking = await openBrowserSurvey(survey);
});
afterAll(() => taking?.close());

/** Runs a respondent from the survey's link to its end; returns the answers of the response it recorded. */
const respond = (options: BrowserContextOptions, run: (page: Page) => Promise<void>) =>
  respondFromLink(taking, options, run);

const card = (page: Page, item: string) => page.locator('.rank-card', { hasText: item });

/** Dropped just above a card (before it), or at the foot of the list (last). */
const at = (page: Page, before?: string) => () =>
  dropPoint(before ? card(page, before) : page.locator('.rank-board'), before !== undefined);
const dragWithMouse = (page: Page, item: string, before?: string) =>
  mouseDrag(page, card(page, item), at(page, before));
const dragWithTouch = (page: Page, item: string, before?: string) =>
  touchDrag(page, card(page, item), at(page, before));

/** The list's items, top to bottom. */
const list = (page: Page) =>
  page.$$eval('.rank-card', (cards) => cards.map((c) => (c.textContent ?? '').trim()));

/** The rank each select shows, by item. */
const ranks = (page: Page) =>
  page.$$eval('#q-QID1 .rank-dnd .field', (fields) =>
    Object.fromEntries(
      fields.map((f) => [f.querySelector('label')?.textContent?.trim(), f.querySelector('select')?.value]),
    ),
  );

/** Juice first, then Tea, then Coffee. */
const DRAGGED = { QID1_1: 2, QID1_2: 3, QID1_3: 1 };

describe('rank order by dragging', () => {
  it('with the mouse at 1280 px: three items reordered; the selects follow, each with a change event', async () => {
    const values = await respond({ viewport: { width: 1280, height: 900 } }, async (page) => {
      expect(await list(page)).toEqual(['Tea', 'Coffee', 'Juice']);
      // Only the drag-and-drop question has a list; the other keeps its selects alone.
      expect(await page.locator('.rank-board').count()).toBe(1);
      expect(await page.locator('#q-QID1 .rank-board').count()).toBe(1);
      await page.evaluate(() => {
        const w = window as unknown as { changes: string[] };
        w.changes = [];
        document.addEventListener('change', (e) => w.changes.push((e.target as HTMLSelectElement).name));
      });
      // A tap on a card ranks nothing.
      await card(page, 'Tea').click();
      expect(await ranks(page)).toEqual({ Tea: '', Coffee: '', Juice: '' });
      await dragWithMouse(page, 'Tea'); // to the foot: Coffee, Juice, Tea
      expect(await list(page)).toEqual(['Coffee', 'Juice', 'Tea']);
      expect(await ranks(page)).toEqual({ Tea: '3', Coffee: '1', Juice: '2' });
      expect(await page.evaluate(() => (window as unknown as { changes: string[] }).changes.sort())).toEqual([
        'QID1_1',
        'QID1_2',
        'QID1_3',
      ]);
      await dragWithMouse(page, 'Juice', 'Coffee'); // Juice, Coffee, Tea
      await dragWithMouse(page, 'Tea', 'Coffee'); // Juice, Tea, Coffee
      expect(await list(page)).toEqual(['Juice', 'Tea', 'Coffee']);
      expect(await ranks(page)).toEqual({ Tea: '2', Coffee: '3', Juice: '1' });
      expect(await page.locator('#q-QID1 [aria-live]').textContent()).toBe('Tea: 2 of 3.');
      // A drop outside the list puts the item back where it was.
      const coffee = await card(page, 'Coffee').boundingBox();
      await page.mouse.move((coffee?.x ?? 0) + 10, (coffee?.y ?? 0) + 10);
      await page.mouse.down();
      await page.mouse.move(5, 880, { steps: 5 });
      await page.mouse.up();
      expect(await list(page)).toEqual(['Juice', 'Tea', 'Coffee']);
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
    });
    expect(values).toEqual(DRAGGED);
  });

  it('with touch at 390 px (pointer events from a touch screen)', async () => {
    const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
    const values = await respond(phone, async (page) => {
      const width = await page.locator('.rank-board').evaluate((b) => b.getBoundingClientRect().width);
      expect(width).toBeGreaterThan(300);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page.evaluate(() =>
        document.addEventListener('pointerdown', (e) => {
          document.body.dataset.pointer = e.pointerType;
        }),
      );
      await dragWithTouch(page, 'Juice', 'Tea'); // Juice, Tea, Coffee
      expect(await page.evaluate(() => document.body.dataset.pointer)).toBe('touch');
      expect(await list(page)).toEqual(['Juice', 'Tea', 'Coffee']);
      expect(await ranks(page)).toEqual({ Tea: '2', Coffee: '3', Juice: '1' });
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
    });
    expect(values).toEqual(DRAGGED);
  });

  it('with the keyboard alone: the selects answer, and the list follows them', async () => {
    const values = await respond({ viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.getByLabel('Coffee', { exact: true }).focus();
      await page.keyboard.press('ArrowDown'); // Coffee: 1
      expect(await list(page)).toEqual(['Coffee', 'Tea', 'Juice']);
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown'); // Juice: 2
      await page.getByLabel('Tea', { exact: true }).focus();
      for (const _ of [1, 2, 3]) await page.keyboard.press('ArrowDown'); // Tea: 3
      expect(await list(page)).toEqual(['Coffee', 'Juice', 'Tea']);
      await page.getByRole('button', { name: 'Next' }).focus();
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    });
    expect(values).toEqual({ QID1_1: 3, QID1_2: 1, QID1_3: 2 });
  });

  it('without the script the selects alone submit, and no list is drawn', async () => {
    const values = await respond(
      { viewport: { width: 390, height: 844 }, javaScriptEnabled: false },
      async (page) => {
        expect(await page.locator('.rank-board').count()).toBe(0);
        await page.getByLabel('Tea', { exact: true }).selectOption('3');
        await page.getByLabel('Coffee', { exact: true }).selectOption('2');
        await page.getByLabel('Juice', { exact: true }).selectOption('1');
        await page.getByLabel('Winter', { exact: true }).selectOption('1');
        await page.getByLabel('Summer', { exact: true }).selectOption('2');
        await next(page);
      },
    );
    expect(values).toEqual({ QID1_1: 3, QID1_2: 2, QID1_3: 1, QID2_1: 2, QID2_2: 1 });
  });
});
