import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './axe.js';
import { type BrowserSurvey, next, openBrowserSurvey, respondInBrowser } from './engine-helpers.js';
import { mapShapesSurvey } from './map-shapes-survey.js';

/**
 * Issue 14 leftovers, in Debian's chromium: a like/dislike hot spot (each region neither → like →
 * dislike → neither) and polygon regions (hit inside the polygon, not its bounding box), answered with
 * the mouse and with the keyboard; both responses read back over the API.
 */

let taking: BrowserSurvey;

beforeAll(async () => {
  taking = await openBrowserSurvey(mapShapesSurvey());
});
afterAll(() => taking?.close());

/** Runs a respondent in a fresh browser context; answers the response it recorded. */
const respondent = (run: (page: Page) => Promise<void>) =>
  respondInBrowser(taking, { viewport: { width: 1280, height: 900 } }, run);

const stateOf = (page: Page, region: string) =>
  page.locator(`#q-QID81 input[name="QID81_${region}"]:checked`).getAttribute('value');

describe('like/dislike hot spot and polygon regions', () => {
  it('cycles a region neither → like → dislike with clicks, inside the polygon only', async () => {
    const values = await respondent(async (page) => {
      await page.goto(taking.link);
      const spot = page.locator('#q-QID81 .map img');
      await spot.waitFor();
      expect(await spot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
      // The regions are drawn over the image: a polygon and a box, outlined.
      expect(await page.locator('#q-QID81 .map svg polygon.map-region').count()).toBe(1);
      expect(await page.locator('#q-QID81 .map svg rect.map-region').count()).toBe(1);
      expect(await stateOf(page, '1')).toBe('0');
      // In the triangle's bounding box but outside the triangle: nothing changes.
      await spot.click({ position: { x: 10, y: 10 } });
      expect(await stateOf(page, '1')).toBe('0');
      // Inside the triangle: like; the box twice: dislike; a third time round the box: neither, then like.
      await spot.click({ position: { x: 100, y: 150 } });
      expect(await stateOf(page, '1')).toBe('1');
      for (let i = 0; i < 4; i++) await spot.click({ position: { x: 300 + i, y: 100 } });
      expect(await stateOf(page, '2')).toBe('1');
      await spot.click({ position: { x: 310, y: 100 } });
      expect(await stateOf(page, '2')).toBe('2');
      expect(await page.locator('#q-QID81 polygon.map-region.like').count()).toBe(1);
      expect(await page.locator('#q-QID81 rect.map-region.dislike').count()).toBe(1);
      expect(await page.getByRole('radio', { name: 'Like' }).first().isChecked()).toBe(true);

      // The heat map: a click outside the polygon (in its box) falls in no region, inside it in "Stage".
      const heat = page.locator('#q-QID82 .map img');
      await heat.click({ position: { x: 190, y: 10 } });
      expect(await page.getByRole('radio', { name: 'Stage' }).isChecked()).toBe(false);
      await heat.click({ position: { x: 100, y: 120 } });
      expect(await page.getByRole('radio', { name: 'Stage' }).isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
      expect(await page.locator('.end').count()).toBe(1);
    });
    expect(values).toMatchObject({ QID81_1: 1, QID81_2: 2, QID82_1_x: 100, QID82_1_y: 120, QID82_1: 1 });
    expect(values.QID82_2).toBeUndefined();
  });

  it('takes each region’s state and the heat map’s region from the keyboard', async () => {
    const values = await respondent(async (page) => {
      await page.goto(taking.link);
      // The first region's group: "Neither" has the focus; the arrow moves to "Like" and selects it.
      await page.locator('#f-QID81_1-0').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Tab'); // to the second region's group
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await stateOf(page, '1')).toBe('1');
      expect(await stateOf(page, '2')).toBe('2');
      // The drawing follows the keyboard.
      expect(await page.locator('#q-QID81 polygon.map-region.like').count()).toBe(1);
      expect(await page.locator('#q-QID81 rect.map-region.dislike').count()).toBe(1);
      await page.keyboard.press('Tab'); // to the heat map's regions
      await page.keyboard.press('Space');
      expect(await page.getByRole('radio', { name: 'Stage' }).isChecked()).toBe(true);
      await page.keyboard.press('ArrowDown');
      expect(await page.getByRole('radio', { name: 'Bar' }).isChecked()).toBe(true);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(await page.locator('.end').count()).toBe(1);
    });
    expect(values).toMatchObject({ QID81_1: 1, QID81_2: 2, QID82_2: 1 });
    expect(values.QID82_1_x).toBeUndefined();
    expect(values.QID82_1).toBeUndefined();
  });

  it('records nothing for regions left at neither, and refuses a state the page does not offer', async () => {
    const values = await respondent(async (page) => {
      await page.goto(taking.link);
      await page.locator('#q-QID81 .map img').click({ position: { x: 300, y: 50 } });
      await page.evaluate(() => {
        const radio = document.querySelector('#f-QID81_1-0') as HTMLInputElement;
        radio.value = '7';
        radio.checked = true;
      });
      await next(page);
      expect(await page.locator('#q-QID81 .error').textContent()).toBe('That choice is not offered here.');
      // The page again, the refused answer not taken: the box liked anew, the triangle left at neither.
      expect(await stateOf(page, '1')).toBe('0');
      await page.locator('#q-QID81 .map img').click({ position: { x: 300, y: 50 } });
      await next(page);
      expect(await page.locator('.end').count()).toBe(1);
    });
    expect(values).toMatchObject({ QID81_2: 1 });
    expect(values.QID81_1).toBeUndefined();
  });
});
