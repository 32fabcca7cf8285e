import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';

/** A QSF file of test/fixtures/engine/. */
/** pets.qsf answered a page a post (no pet; oranges; Good, Bad): the last post records the response. */
export const PETS_PAGES: readonly Record<string, string>[] = [
  { QID1: '2' },
  { QID3: '1' },
  { QID4_1: '1', QID4_2: '2', _fw_action: 'continue' },
];

export const engineFixture = (name: string) =>
  readFileSync(new URL(`../fixtures/engine/${name}`, import.meta.url), 'utf8');

/** Debian's chromium, headless, with nothing that talks to the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    timeout: 30_000,
  });
}

/**
 * The time given to a test that walks a survey's pages in Chromium (a dozen pages, each checked): 5-10 s
 * alone, several times that when the suite's three workers share two cores with Chromium and PostgreSQL
 * (a walk once passed 30 s in CI). It catches a hang; speed is the benchmarks' to check.
 */
export const BROWSER_WALK_TIMEOUT = 120_000;

/** The test app listening on loopback (a browser needs a real socket); returns its base URL. */
export async function listenOnLoopback(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

/** Imports a QSF file and, unless told otherwise, activates the survey; returns its id. */
export async function importSurvey(
  t: TestApp,
  token: string,
  qsf: string,
  options: { active?: boolean } = {},
): Promise<string> {
  const res = await uploadQsf(t, token, qsf);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.result.id as string;
  const active = options.active ?? true;
  const put = await t.call(token, 'PUT', `/API/v3/surveys/${id}`, { isActive: active });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  return id;
}

/** Presses the page's Next button and waits for the page that follows. */
export async function next(page: Page, name = 'Next'): Promise<void> {
  // The form posts, and the answer is the next page or a redirect to it: wait for that document.
  await Promise.all([
    page.waitForNavigation({ waitUntil: 'load', timeout: 15_000 }),
    page.getByRole('button', { name, exact: true }).click({ timeout: 15_000 }),
  ]);
}

/** Question keys (QID...) of a response's values. */
export const questionKeys = (values: Record<string, unknown>) =>
  Object.keys(values)
    .filter((k) => /^QID\d/.test(k))
    .sort();

/** Form controls of the page a person can reach that have no label of any kind (should be none). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=hidden]):not([aria-hidden=true]), select, textarea', (els) =>
    els
      .filter((el) => {
        const control = el as HTMLInputElement;
        const labelled = (control.labels?.length ?? 0) > 0 || control.closest('label') !== null;
        return !labelled && !control.getAttribute('aria-label') && !control.getAttribute('aria-labelledby');
      })
      .map((el) => (el as HTMLInputElement).name),
  );
}

/**
 * The one response of `surveyId` recorded since the ids in `seen` (which it joins): a browser test's
 * respondent has just finished. Fails unless exactly one is new.
 */
export async function newResponseId(t: TestApp, surveyId: string, seen: string[]): Promise<string> {
  const rows = await t.database.db
    .selectFrom('responses')
    .select('id')
    .where('survey_id', '=', surveyId)
    .execute();
  const fresh = rows.map((r) => r.id).filter((id) => !seen.includes(id));
  expect(fresh).toHaveLength(1);
  seen.push(fresh[0] as string);
  return fresh[0] as string;
}

/** A survey that browser respondents take: where they start, and what reads their responses back. */
export interface BrowserSurvey {
  t: TestApp;
  browser: Browser;
  token: string;
  surveyId: string;
  /** The survey's anonymous link, on the app's loopback port. */
  link: string;
  /** The responses read back so far (newResponseId). */
  seen: string[];
  /** Closes the browser and the app. */
  close(): Promise<void>;
}

/**
 * A test app on loopback with a new organisation, the QSF document `doc` imported and active, and Debian's
 * chromium to take it (for a file's beforeAll; its afterAll calls `close`).
 */
export async function openBrowserSurvey(doc: unknown): Promise<BrowserSurvey> {
  const t = await buildTestApp();
  let browser: Browser | undefined;
  try {
    const base = await listenOnLoopback(t);
    browser = await launchBrowser();
    const org = await t.newOrganization();
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    const opened = browser;
    const close = async () => {
      await opened.close();
      await t.close();
    };
    return {
      t,
      browser,
      token: org.apiToken,
      surveyId,
      link: `${base}/jfe/form/${surveyId}`,
      seen: [],
      close,
    };
  } catch (error) {
    await browser?.close();
    await t.close();
    throw error;
  }
}

/**
 * Runs one respondent in a fresh browser context (`run` drives the page, from wherever it goes first) and
 * answers the values of the one response it recorded, read back through the API.
 */
export async function respondInBrowser(
  survey: BrowserSurvey,
  options: BrowserContextOptions,
  run: (page: Page) => Promise<void>,
): Promise<Record<string, unknown>> {
  const context = await survey.browser.newContext(options);
  context.setDefaultTimeout(10_000);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
  const { t, token, surveyId } = survey;
  const responseId = await newResponseId(t, surveyId, survey.seen);
  const res = await t.call(token, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.values as Record<string, unknown>;
}

/** respondInBrowser from the survey's link to its end page; answers the response's answers (question keys). */
export async function respondFromLink(
  survey: BrowserSurvey,
  options: BrowserContextOptions,
  run: (page: Page) => Promise<void>,
): Promise<Record<string, unknown>> {
  const values = await respondInBrowser(survey, options, async (page) => {
    await page.goto(survey.link);
    await run(page);
    await page.waitForSelector('.end');
  });
  return Object.fromEntries(questionKeys(values).map((k) => [k, values[k]]));
}
