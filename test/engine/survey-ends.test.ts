/**
 * Ends of survey in the browser (issue 13 item 1): a redirect to a piped URL after the response is
 * recorded (intercepted: nothing leaves loopback), an inline and a library end message, and a screen-out
 * recorded as screened (Finished 0, Q_TerminateFlag) with no completion event.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

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

const PANEL = 'https://panel.example.test/complete';

async function withPage<T>(run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  // Anything bound for another host is answered here: no request leaves loopback.
  const outside: string[] = [];
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => {
    outside.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>panel</title>landed' });
  });
  try {
    const page = await context.newPage();
    return await run(page);
  } finally {
    await context.close();
  }
}

const consent = question('QID1', {
  type: 'MC',
  selector: 'SAVR',
  text: 'Do you agree?',
  choices: ['Yes', 'No'],
});
const age = question('QID2', { type: 'TE', selector: 'SL', text: 'Your age?' });

const completedEvents = async (responseId: string) =>
  (await t.database.db.selectFrom('events').select(['topic', 'payload']).execute()).filter((e) =>
    e.payload.includes(responseId),
  );

async function responseOf(surveyId: string, responseId: string) {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.values as Record<string, unknown>;
}

describe('ends of survey', () => {
  it('redirects to the piped URL once the response is recorded', async () => {
    const doc = qsf({
      blocks: [block('BL_1', ['QID2'])],
      questions: [age],
      flow: [
        {
          Type: 'EmbeddedData',
          FlowID: 'FL_2',
          EmbeddedData: [{ Description: 'PID', Type: 'Recipient', Field: 'PID' }],
        },
        blockFlow('BL_1', 'FL_3'),
        {
          Type: 'EndSurvey',
          FlowID: 'FL_4',
          EndingType: 'Advanced',
          Options: {
            Advanced: 'true',
            SurveyTermination: 'Redirect',
            EOSRedirectURL: `${PANEL}?pid=\${e://Field/PID}&rid=\${e://Field/ResponseID}&n=\${rand://int/1:9}&x=\${m://Nope}`,
          },
        },
      ],
    });
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));
    await withPage(async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}?PID=a%20b&c`);
      await page.getByLabel('Your age?').fill('41');
      await Promise.all([
        page.waitForURL(/panel\.example\.test/),
        page.getByRole('button', { name: 'Next' }).click(),
      ]);
      const url = new URL(page.url());
      expect(`${url.origin}${url.pathname}`).toBe(PANEL);
      expect(url.searchParams.get('pid')).toBe('a b');
      expect(Number(url.searchParams.get('n'))).toBeGreaterThanOrEqual(1);
      expect(Number(url.searchParams.get('n'))).toBeLessThanOrEqual(9);
      expect(url.searchParams.get('x')).toBe('');
      const responseId = url.searchParams.get('rid') ?? '';
      expect(responseId).toMatch(/^R_/);
      // Recorded before the browser was sent on.
      const values = await responseOf(surveyId, responseId);
      expect(values.QID2_TEXT).toBe('41');
      expect(values.finished).toBe(1);
    });
  });

  it('shows an inline end message with piped text, and a library message', async () => {
    const created = await t.call(org.apiToken, 'POST', `/API/v3/libraries/${org.userId}/messages`, {
      description: 'Screened',
      category: 'endOfSurvey',
      messages: { en: '<p>Sorry, you do not qualify.</p>' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const messageId = created.body.result.id as string;
    const doc = qsf({
      blocks: [block('BL_1', ['QID1']), block('BL_2', ['QID2'])],
      questions: [consent, age],
      options: {
        SurveyTermination: 'DisplayMessage',
        EOSMessage: `Thanks, you are \${q://QID2/ChoiceTextEntryValue}.`,
      },
      flow: [
        blockFlow('BL_1', 'FL_2'),
        {
          Type: 'Branch',
          FlowID: 'FL_3',
          BranchLogic: selected('QID1', '2'),
          Flow: [
            {
              Type: 'EndSurvey',
              FlowID: 'FL_4',
              EndingType: 'Advanced',
              Options: {
                Advanced: 'true',
                SurveyTermination: 'DisplayMessage',
                EOSMessageLibrary: org.userId,
                EOSMessage: messageId,
                ResponseFlag: 'Screened',
              },
            },
          ],
        },
        blockFlow('BL_2', 'FL_5'),
      ],
    });
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(doc));

    // Agrees: the survey options' inline message, with the answer piped.
    await withPage(async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByLabel('Yes', { exact: true }).check();
      await next(page);
      await page.getByLabel('Your age?').fill('<b>33</b>');
      await next(page);
      expect(await page.locator('.end').textContent()).toBe('Thanks, you are <b>33</b>.');
    });

    // Declines: screened out, with the library message.
    await withPage(async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByLabel('No', { exact: true }).check();
      await next(page);
      expect(await page.locator('.end').textContent()).toBe('Sorry, you do not qualify.');
    });

    const sessions = await t.database.db
      .selectFrom('engine_sessions')
      .select(['response_id', 'status'])
      .where('survey_id', '=', surveyId)
      .execute();
    expect(sessions.map((s) => s.status)).toEqual(['complete', 'complete']);
    const ids = sessions.map((s) => s.response_id ?? '');
    const [finished, screened] = await Promise.all(ids.map((id) => responseOf(surveyId, id)));
    expect(finished?.finished).toBe(1);
    expect(finished?.Q_TerminateFlag).toBeUndefined();
    expect(screened?.finished).toBe(0);
    expect(screened?.Q_TerminateFlag).toBe('Screened');
    // A completion event for the finished response only.
    expect((await completedEvents(ids[0] ?? '')).map((e) => e.topic)).toEqual([
      `surveyengine.completedResponse.${surveyId}`,
    ]);
    expect(await completedEvents(ids[1] ?? '')).toEqual([]);

    // The export: Finished False and the flag for the screened response (Finished 1 and no flag otherwise).
    const csv = await exportCsv(t, org.apiToken, surveyId, { useLabels: true });
    const column = (name: string) => csv.names.indexOf(name);
    expect(column('Q_TerminateFlag')).toBeGreaterThan(
      column('QID2_TEXT') < 0 ? column('Q2') : column('QID2_TEXT'),
    );
    const rowOf = (id: string) => csv.data[csv.responseIds.indexOf(id)] ?? [];
    expect(rowOf(ids[1] ?? '')[column('Finished')]).toBe('False');
    expect(rowOf(ids[1] ?? '')[column('Q_TerminateFlag')]).toBe('Screened');
    expect(rowOf(ids[0] ?? '')[column('Finished')]).toBe('True');
    expect(rowOf(ids[0] ?? '')[column('Q_TerminateFlag')]).toBe('');
  });
});
