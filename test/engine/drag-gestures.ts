import type { Locator, Page } from 'playwright-core';

/**
 * Pointer drags for the survey pages' drag boards (web/views/drag-board.ts), as a person makes them: from
 * the middle of `from` to the point `target` answers, aiming again once the board has made room where the
 * item will land (`target` is asked twice).
 */
export type DropPoint = () => Promise<{ x: number; y: number }>;

/** Where a drop lands on `locator`: just above its middle (before it), or at its foot (last in it). */
export async function dropPoint(locator: Locator, before: boolean): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on the page');
  return { x: box.x + box.width / 2, y: before ? box.y + 4 : box.y + box.height - 6 };
}

export async function dragWithMouse(page: Page, from: Locator, target: DropPoint): Promise<void> {
  const box = await from.boundingBox();
  if (!box) throw new Error('the dragged item is not on the page');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  const end = await target();
  await page.mouse.move(end.x, end.y, { steps: 10 });
  const again = await target();
  await page.mouse.move(again.x, again.y, { steps: 2 });
  await page.mouse.up();
}

/** A finger's drag, as the touch screen reports it (chromium turns it into touch pointer events). */
export async function dragWithTouch(page: Page, from: Locator, target: DropPoint): Promise<void> {
  await from.scrollIntoViewIfNeeded();
  const box = await from.boundingBox();
  if (!box) throw new Error('the dragged item is not on the page');
  const end = await target();
  const cdp = await page.context().newCDPSession(page);
  const start = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [start] });
  for (let i = 1; i <= 10; i++) {
    const point = { x: start.x + ((end.x - start.x) * i) / 10, y: start.y + ((end.y - start.y) * i) / 10 };
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
  }
  const again = await target();
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [again] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
