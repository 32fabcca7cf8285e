/**
 * Issue 13 item 3 in the browser: a block presenting 15 random questions of 60, one per page, the same
 * order after a reload and a different one for another respondent; choice randomization; the presented
 * order recorded (displayOrder data) and exported with includeDisplayOrder.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import {
  BROWSER_WALK_TIMEOUT,
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
} from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await t?.close();
});

const ITEMS = Array.from({ length: 60 }, (_, i) => `QID${i + 1}`);
const FRUITS = ['Apple', 'Banana', 'Cherry', 'Date', 'Elderberry'];
const SCALE = ['Poor', 'Fair', 'Good', 'Great', 'Superb'];
const DOC = qsf({
  blocks: [
    block('BL_1', ITEMS, {
      RandomizeQuestions: 'RandomWithOnlyX',
      Randomization: { Advanced: null, TotalRandSubset: 15, QuestionsPerPage: 1, EvenPresentation: false },
    }),
    block('BL_2', ['QID61', 'QID62']),
  ],
  questions: [
    ...ITEMS.map((id) => question(id, { type: 'DB', selector: 'TB', text: `Statement ${id}` })),
    question('QID61', {
      type: 'MC',
      selector: 'SAVR',
      text: 'Favourite fruit?',
      choices: FRUITS,
      extra: { Randomization: { Type: 'All', TotalRandSubset: '', Advanced: null } },
    }),
    question('QID62', {
      type: 'Matrix',
      selector: 'Likert',
      sub: 'SingleAnswer',
      text: 'Rate the fruit',
      choices: ['Taste'],
      answers: SCALE,
      extra: { AnswerRandomization: { Type: 'All' } },
    }),
  ],
  flow: [blockFlow('BL_1', 'FL_2'), blockFlow('BL_2', 'FL_3')],
});

const heading = (page: Page) => page.locator('form .descriptive').first().innerText();

async function takeSubset(page: Page, surveyId: string, reloadAt: number): Promise<string[]> {
  await page.goto(`${base}/jfe/form/${surveyId}`);
  const seen: string[] = [];
  for (let n = 0; n < 15; n++) {
    const text = await heading(page);
    if (n === reloadAt) {
      await page.reload();
      expect(await heading(page)).toBe(text);
    }
    seen.push(/Statement (QID\d+)/.exec(text)?.[1] ?? text);
    await next(page);
  }
  return seen;
}

describe('randomization', { timeout: BROWSER_WALK_TIMEOUT }, () => {
  it('presents 15 of 60 one per page, keeps the order on reload, and records and exports it', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const seen = await takeSubset(page, surveyId, 3);
    expect(new Set(seen).size).toBe(15);
    for (const id of seen) expect(ITEMS).toContain(id);
    // The choices of QID61: a random order, the same on reload.
    const labels = () => page.locator('#q-QID61 label').allInnerTexts();
    const order = await labels();
    expect([...order].sort()).toEqual(FRUITS);
    // The matrix's scale points: a random order, the same on reload.
    const points = () => page.locator('#q-QID62 thead th').allInnerTexts();
    const scale = await points();
    expect([...scale].sort()).toEqual([...SCALE].sort());
    await page.reload();
    expect(await labels()).toEqual(order);
    expect(await points()).toEqual(scale);
    await page.getByLabel('Cherry').check();
    await next(page);
    await context.close();

    const other = await browser.newContext();
    const seenByOther = await takeSubset(await other.newPage(), surveyId, -1);
    await other.close();
    expect(seenByOther).not.toEqual(seen);

    const session = await t.database.db
      .selectFrom('engine_sessions')
      .select('response_id')
      .where('survey_id', '=', surveyId)
      .where('status', '=', 'complete')
      .orderBy('started_at')
      .executeTakeFirstOrThrow();
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${session.response_id}`,
    );
    const values = res.body.result.values as Record<string, unknown>;
    expect(values.BL_1_DO).toBe(seen.join('|'));
    const positions = FRUITS.map((_, i) => values[`QID61_DO_${i + 1}`]);
    expect(positions).toEqual(FRUITS.map((f) => order.indexOf(f) + 1));
    expect(values.QID61).toBe(3);

    const csv = await exportCsv(t, org.apiToken, surveyId, { includeDisplayOrder: true });
    const row = csv.data[csv.responseIds.indexOf(session.response_id ?? '')] ?? [];
    expect(FRUITS.map((_, i) => row[csv.names.indexOf(`Q61_DO_${i + 1}`)])).toEqual(positions.map(String));
    const scalePositions = SCALE.map((_, i) => values[`QID62_ADO_${i + 1}`]);
    expect(scalePositions).toEqual(SCALE.map((p) => scale.indexOf(p) + 1));
    expect(SCALE.map((_, i) => row[csv.names.indexOf(`Q62_ADO_${i + 1}`)])).toEqual(
      scalePositions.map(String),
    );
    const plain = await exportCsv(t, org.apiToken, surveyId);
    expect(plain.names.filter((n) => n.includes('_DO_'))).toEqual([]);
  });
});
