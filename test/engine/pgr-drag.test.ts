/**
 * Pick, group and rank by dragging (web/views/pgr-board.ts) in Debian's chromium: with the mouse at 1280 px
 * and with touch at 390 px the items are dragged into groups and reordered within one; the keyboard still
 * answers through the selects, which the board follows; without the script the selects alone submit.
 * Each response reads back over the API under the real value keys (`_GROUP`, `_RANK`).
 */
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { dropPoint, dragWithMouse as mouseDrag, dragWithTouch as touchDrag } from './drag-gestures.js';
import { type BrowserSurvey, next, openBrowserSurvey, respondFromLink } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let taking: BrowserSurvey;

const survey = qsf({
  blocks: [block('BL_pgrdrag000000001', ['QID1'])],
  flow: [blockFlow('BL_pgrdrag000000001', 'FL_2')],
  questions: [
    question('QID1', {
      type: 'PGR',
      selector: 'DragAndDrop',
      sub: 'Columns',
      text: 'Sort your things',
      choices: ['Books', 'Lamp', 'Chair', 'Mug'],
      extra: { Groups: ['Keep', 'Give away'], NumberOfGroups: 2 },
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

const card = (page: Page, item: string) => page.locator('.pgr-card', { hasText: item });
const zone = (page: Page, group: string) => page.locator(`.pgr-zone[data-zone="${group}"]`);

type Place = { group: string; before?: string };

/** Dropped just above a card (before it), or at the foot of a zone (last in it). */
const at = (page: Page, to: Place) => () =>
  dropPoint(to.before ? card(page, to.before) : zone(page, to.group), to.before !== undefined);
const dragWithMouse = (page: Page, item: string, to: Place) =>
  mouseDrag(page, card(page, item), at(page, to));
const dragWithTouch = (page: Page, item: string, to: Place) =>
  touchDrag(page, card(page, item), at(page, to));

/** The items of each zone of the board, in order ('' is "Not placed"). */
function board(page: Page): Promise<Record<string, string[]>> {
  return page.$$eval('.pgr-zone', (zones) =>
    Object.fromEntries(
      zones.map((z) => [
        z.getAttribute('data-zone') ?? '?',
        Array.from(z.querySelectorAll('.pgr-card'), (c) => (c.textContent ?? '').trim()),
      ]),
    ),
  );
}

const selected = (page: Page, item: string, field: 'Group' | 'Rank in group') =>
  page
    .getByRole('group', { name: item })
    .getByLabel(field, { exact: true })
    .evaluate((el: HTMLSelectElement) => el.options[el.selectedIndex]?.textContent);

/** Books and Chair kept (Chair first), Lamp given away, Mug not placed. */
const SORTED = {
  QID1_0_GROUP_1: 1,
  QID1_0_GROUP_3: 1,
  QID1_1_GROUP_2: 1,
  QID1_G0_1_RANK: 2,
  QID1_G0_3_RANK: 1,
  QID1_G1_2_RANK: 1,
};

describe('pick, group and rank by dragging', () => {
  it('with the mouse at 1280 px: two items into two groups, one reordered; the selects follow', async () => {
    const values = await respond({ viewport: { width: 1280, height: 900 } }, async (page) => {
      expect(await board(page)).toEqual({ '': ['Books', 'Lamp', 'Chair', 'Mug'], 0: [], 1: [] });
      await dragWithMouse(page, 'Books', { group: '0' });
      await dragWithMouse(page, 'Lamp', { group: '1' });
      await dragWithMouse(page, 'Chair', { group: '0' });
      expect(await board(page)).toEqual({ '': ['Mug'], 0: ['Books', 'Chair'], 1: ['Lamp'] });
      await dragWithMouse(page, 'Chair', { group: '0', before: 'Books' });
      expect(await board(page)).toEqual({ '': ['Mug'], 0: ['Chair', 'Books'], 1: ['Lamp'] });
      expect(await page.locator('.pgr [aria-live]').textContent()).toBe('Chair: Keep, 1 of 2.');
      expect(await selected(page, 'Books', 'Group')).toBe('Keep');
      expect(await selected(page, 'Books', 'Rank in group')).toBe('2');
      expect(await selected(page, 'Chair', 'Rank in group')).toBe('1');
      expect(await selected(page, 'Lamp', 'Group')).toBe('Give away');
      expect(await selected(page, 'Mug', 'Group')).toBe('Not placed');
      // A drop outside every zone puts the item back where it was.
      const mug = await card(page, 'Mug').boundingBox();
      await page.mouse.move((mug?.x ?? 0) + 10, (mug?.y ?? 0) + 10);
      await page.mouse.down();
      await page.mouse.move(5, 880, { steps: 5 });
      await page.mouse.up();
      expect((await board(page))['']).toEqual(['Mug']);
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
    });
    expect(values).toEqual(SORTED);
  });

  it('with touch at 390 px (pointer events from a touch screen)', async () => {
    const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
    const values = await respond(phone, async (page) => {
      // At 390 px the zones stack, each the width of the question.
      const widths = await page.$$eval('.pgr-zone', (zones) =>
        zones.map((z) => z.getBoundingClientRect().width),
      );
      expect(Math.min(...widths)).toBeGreaterThan(300);
      await page.evaluate(() =>
        document.addEventListener('pointerdown', (e) => {
          document.body.dataset.pointer = e.pointerType;
        }),
      );
      await dragWithTouch(page, 'Books', { group: '0' });
      expect(await page.evaluate(() => document.body.dataset.pointer)).toBe('touch');
      await dragWithTouch(page, 'Lamp', { group: '1' });
      await dragWithTouch(page, 'Chair', { group: '0' });
      await dragWithTouch(page, 'Chair', { group: '0', before: 'Books' });
      expect(await board(page)).toEqual({ '': ['Mug'], 0: ['Chair', 'Books'], 1: ['Lamp'] });
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
    });
    expect(values).toEqual(SORTED);
  });

  it('with the keyboard alone: the selects answer, and the board follows them', async () => {
    const values = await respond({ viewport: { width: 1280, height: 900 } }, async (page) => {
      await page.getByRole('group', { name: 'Mug' }).getByLabel('Group', { exact: true }).focus();
      await page.keyboard.press('ArrowDown'); // Keep
      await page.keyboard.press('Tab');
      await page.keyboard.press('ArrowDown'); // rank 1
      await page.getByRole('group', { name: 'Lamp' }).getByLabel('Group', { exact: true }).focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown'); // Give away
      expect(await board(page)).toEqual({ '': ['Books', 'Chair'], 0: ['Mug'], 1: ['Lamp'] });
      await page.getByRole('button', { name: 'Next' }).focus();
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
    });
    expect(values).toEqual({ QID1_0_GROUP_4: 1, QID1_1_GROUP_2: 1, QID1_G0_4_RANK: 1, QID1_G1_2_RANK: 1 });
  });

  it('without the script the selects alone submit, and no board is drawn', async () => {
    const values = await respond(
      { viewport: { width: 390, height: 844 }, javaScriptEnabled: false },
      async (page) => {
        expect(await page.locator('.pgr-board').count()).toBe(0);
        await page
          .getByRole('group', { name: 'Chair' })
          .getByLabel('Group', { exact: true })
          .selectOption('1');
        await page
          .getByRole('group', { name: 'Books' })
          .getByLabel('Group', { exact: true })
          .selectOption('1');
        await next(page);
      },
    );
    // Ranks left empty follow the items' order on the page.
    expect(values).toEqual({ QID1_1_GROUP_1: 1, QID1_1_GROUP_3: 1, QID1_G1_1_RANK: 1, QID1_G1_3_RANK: 2 });
  });
});
