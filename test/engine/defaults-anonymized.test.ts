/**
 * Issue 13 item 6 in the browser: default answers (one piped from a URL parameter) pre-filled; an
 * anonymized survey keeps no IP address (session, response, API, export); a block listed twice in the
 * flow is shown once; displayedFields holds each field once and only what was shown.
 */
import type { Browser } from 'playwright-core';
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

const DOC = qsf({
  options: { AnonymizeResponse: 'Yes' },
  blocks: [block('BL_1', ['QID1', 'QID2']), block('BL_2', ['QID3', 'QID4'])],
  questions: [
    question('QID1', {
      type: 'TE',
      selector: 'SL',
      text: 'Your panel id',
      extra: { DefaultChoices: { TEXT: { Text: `\${e://Field/pid}` } } },
    }),
    question('QID2', {
      type: 'MC',
      selector: 'SAVR',
      text: 'Colour?',
      choices: ['Red', 'Blue'],
      extra: { DefaultChoices: { 2: { Selected: true } } },
    }),
    question('QID3', { type: 'TE', selector: 'SL', text: 'Anything else?' }),
    question('QID4', {
      type: 'TE',
      selector: 'SL',
      text: 'Only for red',
      extra: { DisplayLogic: selected('QID2', '1') },
    }),
  ],
  flow: [
    {
      Type: 'EmbeddedData',
      FlowID: 'FL_2',
      EmbeddedData: [{ Description: 'pid', Type: 'Recipient', Field: 'pid' }],
    },
    blockFlow('BL_1', 'FL_3'),
    blockFlow('BL_2', 'FL_4'),
    blockFlow('BL_1', 'FL_5'),
  ],
});

describe('default answers, anonymized responses, blocks listed twice', () => {
  it('pre-fills defaults, shows a block once, and keeps no IP address', async () => {
    const surveyId = await importSurvey(t, org.apiToken, JSON.stringify(DOC));
    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${base}/jfe/form/${surveyId}?pid=P-123`);
    expect(await page.getByLabel('Your panel id').inputValue()).toBe('P-123');
    expect(await page.getByLabel('Blue').isChecked()).toBe(true);
    expect(await page.getByLabel('Red').isChecked()).toBe(false);
    await next(page);
    expect(await page.locator('legend').allTextContents()).toEqual(['Anything else?']);
    await page.getByLabel('Anything else?').fill('no');
    await next(page);
    // BL_1 again in the flow: not shown a second time, the survey ends.
    expect(await page.locator('.end').count()).toBe(1);
    await context.close();

    const session = await t.database.db
      .selectFrom('engine_sessions')
      .select(['response_id', 'ip_address'])
      .where('survey_id', '=', surveyId)
      .executeTakeFirstOrThrow();
    expect(session.ip_address).toBeNull();
    const stored = await t.database.db
      .selectFrom('responses')
      .select(['ip_address', 'values'])
      .where('id', '=', session.response_id ?? '')
      .executeTakeFirstOrThrow();
    expect(stored.ip_address).toBeNull();
    expect(stored.values).not.toContain('127.0.0.1');
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${session.response_id}`,
    );
    const { values, displayedFields } = res.body.result;
    expect(values).toMatchObject({ QID1_TEXT: 'P-123', QID2: 2, QID3_TEXT: 'no', pid: 'P-123' });
    expect(values.ipAddress ?? null).toBeNull();
    expect(values.locationLatitude ?? null).toBeNull();
    expect(displayedFields).toEqual([...new Set(displayedFields)]);
    expect(displayedFields).toEqual(expect.arrayContaining(['QID1_TEXT', 'QID2', 'QID3_TEXT']));
    expect(displayedFields.filter((f: string) => f.startsWith('QID4'))).toEqual([]);

    const csv = await exportCsv(t, org.apiToken, surveyId);
    expect(csv.names).not.toContain('IPAddress');
    expect(csv.names).not.toContain('LocationLatitude');
    expect(csv.data.flat()).not.toContain('127.0.0.1');
  });
});
