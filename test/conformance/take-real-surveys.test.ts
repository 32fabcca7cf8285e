import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import {
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
  unlabelledControls,
} from '../engine/engine-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { requireShared, SHARED } from './shared.js';

/** Every real survey file of ../shared/fixtures/qsf: taken to the end in the browser. */
function realSurveyFiles(): string[] {
  requireShared();
  const dir = join(SHARED, 'fixtures/qsf');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.qsf'))
    .map((f) => join(dir, f));
}

let t: TestApp;
let org: BootstrapResult;
let base: string;
let browser: Browser;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const MAX_PAGES = 80;

/**
 * Answers every control of the page as a respondent would: the first choice of each radio group, the
 * first non-exclusive check box, a different rank for each rank item, the first option of each other
 * select, a number within bounds in number boxes, and text in text boxes. Returns the questions answered.
 */
async function answerPage(page: Page): Promise<string[]> {
  const radios = await page.$$eval('input[type=radio]', (els) => [
    ...new Set(els.map((e) => (e as HTMLInputElement).name)),
  ]);
  for (const name of radios) await page.locator(`input[type=radio][name="${name}"]`).first().check();
  const boxes = await page.$$eval('input[type=checkbox]:not([data-exclusive])', (els) => [
    ...new Set(els.map((e) => (e as HTMLInputElement).name)),
  ]);
  for (const name of boxes)
    await page.locator(`input[type=checkbox][name="${name}"]:not([data-exclusive])`).first().check();
  const selects = await page.$$eval('select', (els) =>
    els.map((e) => ({
      id: e.id,
      // A rank order's selects, and a pick-group-rank item's rank within its group.
      rank: e.querySelector('option')?.textContent === 'Rank…' || e.id.endsWith('_RANK'),
      n: e.options.length,
    })),
  );
  const rankCounters = new Map<string, number>();
  for (const select of selects) {
    if (!select.rank) {
      await page.locator(`#${select.id}`).selectOption({ index: 1 });
      continue;
    }
    // Ranks count per question (a pick-group-rank question's group selects are no ranks).
    const question = select.id.replace(/^f-/, '').split('_')[0] ?? '';
    const next = (rankCounters.get(question) ?? 0) + 1;
    rankCounters.set(question, next);
    await page.locator(`#${select.id}`).selectOption({ index: next });
  }
  for (const input of await page.locator('input[type=number]').all()) {
    await input.fill((await input.getAttribute('min')) ?? '0');
  }
  for (const input of await page.locator('input[type=text]').all()) {
    await input.fill((await input.getAttribute('inputmode')) === 'decimal' ? '5' : 'An answer');
  }
  for (const area of await page.locator('textarea').all()) await area.fill('A longer answer.');
  return page.$$eval('fieldset.q', (els) => els.map((e) => e.id.replace(/^q-/, '')));
}

/** What the document in the page shows, read in one go from that document alone. */
interface PageState {
  /** The document's own host: off loopback once an ending's redirect (intercepted, see below) arrived. */
  host: string;
  /** An end page that sends the browser on at once (issue 13): a refresh with no delay. */
  refresh: boolean;
  /** An end page (ours, or the intercepted page a redirect arrives at). */
  ended: boolean;
  /** The texts of the page's error summaries. */
  errors: string[];
  /** The page asks whether to continue without answering (a question that requests an answer). */
  requested: boolean;
}

/**
 * The page's state, or `left` when its document was left while it was read. An end page that redirects
 * leaves as soon as it has loaded, so reading it piece by piece could mix two documents (its URL with the
 * next one's elements) or fail half-way; one evaluation in the document sees one document.
 */
async function pageState(page: Page): Promise<PageState | 'left'> {
  return page
    .evaluate(() => ({
      host: location.hostname,
      refresh: document.querySelector('meta[http-equiv=refresh]') !== null,
      ended: document.querySelector('.end') !== null,
      errors: [...document.querySelectorAll('.summary:not(.requested)')].map((e) => e.textContent ?? ''),
      requested: document.querySelector('.summary.requested') !== null,
    }))
    .catch((error: Error) => {
      if (/Execution context was destroyed/.test(error.message)) return 'left' as const;
      throw error;
    });
}

/** Takes the survey page by page until the end page; returns the questions answered. */
async function takeToTheEnd(page: Page): Promise<string[]> {
  const answered: string[] = [];
  for (let n = 0; n < MAX_PAGES; n++) {
    const state = await pageState(page);
    // An ending that redirects (issue 13): the end page sends the browser on, off loopback, to the page
    // the route below answers with; a page that left without being asked to must have gone there too.
    // A redirect that fails (Chromium's error page, `chrome-error:`) never arrives, and the wait fails.
    if (state === 'left' || state.refresh || state.host !== '127.0.0.1') {
      await page.waitForURL((url) => /^https?:$/.test(url.protocol) && url.hostname !== '127.0.0.1');
      expect(await page.title()).toBe('redirected');
      return answered;
    }
    if (state.ended) return answered;
    expect(state.errors, 'the answers given should be accepted').toEqual([]);
    if (state.requested) {
      await next(page, 'Continue without answering');
      continue;
    }
    expect(await page.locator('form.page').count(), await page.content()).toBe(1);
    expect(await unlabelledControls(page), 'every control has a label').toEqual([]);
    expect(await page.content(), 'no piped text printed raw').not.toMatch(/\$\{[a-z]+:\/\//);
    answered.push(...(await answerPage(page)));
    await next(page);
  }
  throw new Error(`the survey did not end within ${MAX_PAGES} pages`);
}

it('finds the shared survey files', () => {
  expect(realSurveyFiles().length).toBeGreaterThanOrEqual(4);
});

describe.each(realSurveyFiles().map((file) => [file.split('/').at(-1), file]))('%s', (_, file) => {
  it('can be taken to the end in the browser, answering every question shown', async () => {
    const surveyId = await importSurvey(t, org.apiToken, readFileSync(file as string, 'utf8'));
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    context.setDefaultTimeout(10_000);
    // Nothing leaves loopback: an ending's redirect (a panel's completion URL) is answered here.
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<title>redirected</title><main class="end">Redirected</main>',
      }),
    );
    let answered: string[];
    try {
      const page = await context.newPage();
      const first = await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(first?.status()).toBe(200);
      answered = await takeToTheEnd(page);
    } finally {
      await context.close();
    }
    expect(answered.length).toBeGreaterThan(0);

    const [session] = await t.database.db
      .selectFrom('engine_sessions')
      .selectAll()
      .where('survey_id', '=', surveyId)
      .execute();
    expect(session?.status).toBe('complete');
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${session?.response_id}`,
    );
    expect(res.status).toBe(200);
    const keys = Object.keys(res.body.result.values);
    // Every question answered on the way has its value in the response.
    for (const questionId of answered) {
      expect(
        keys.some(
          (k) => k === questionId || k.startsWith(`${questionId}_`) || k.startsWith(`${questionId}#`),
        ),
        `${questionId} has a value`,
      ).toBe(true);
    }
  });
});
