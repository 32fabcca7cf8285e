import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { downloadFile, exportCsv, exportsBase, startExport } from '../exports/export-runs.js';
import { startExportWorker, waitForExport } from '../exports/exports-helpers.js';
import { dataRows, readSavWithPspp } from '../helpers/pspp.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { inputTypesSurvey } from './types-input-survey.js';

/**
 * Issue 14 item 2 (second part), in Debian's chromium: sliders with labels, grid, snapping and "not
 * applicable", stars, bars, meta info, timing, text validation, a file upload and a signature answered
 * by a browser respondent; the response read back over the API with its files; csv and .sav columns.
 */

let t: TestApp;
let base: string;
let browser: Browser;
let worker: JobWorker;
let org: BootstrapResult;
let surveyId: string;
let responseId: string;
const CV = 'Lorem ipsum dolor sit amet.\n';

beforeAll(async () => {
  t = await buildTestApp();
  worker = startExportWorker(t);
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(inputTypesSurvey()));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  try {
    await answerEveryPage(await context.newPage());
  } finally {
    await context.close();
  }
  const [session] = await t.database.db
    .selectFrom('engine_sessions')
    .selectAll()
    .where('survey_id', '=', surveyId)
    .execute();
  responseId = session?.response_id as string;
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await t?.close();
});

const errorOf = (page: Page, qid: string) => page.locator(`#q-${qid} .error`).textContent();

async function answerEveryPage(page: Page): Promise<void> {
  await page.goto(`${base}/jfe/form/${surveyId}`);
  // Page 1: the forced slider must have every statement answered (a value or "not applicable").
  expect(await page.locator('#q-QID1 .scale-labels').textContent()).toBe('UnlikelyLikely');
  await next(page);
  expect(await errorOf(page, 'QID1')).toBe('Please answer every row of this question.');
  await page.getByRole('spinbutton', { name: 'Oranges' }).fill('63'); // snaps to the grid: 75
  await page.getByRole('checkbox', { name: 'Not applicable' }).nth(1).check();
  await page.getByRole('radio', { name: '4 stars' }).check();
  await page.getByRole('spinbutton', { name: 'Tank' }).fill('7.3');
  await next(page);

  // Page 2: each text fails its validation, then passes.
  const fill = async (answers: Record<string, string>) => {
    for (const [label, value] of Object.entries(answers))
      await page.getByLabel(label, { exact: true }).fill(value);
  };
  await fill({
    'Your email': 'nope@',
    'A date': '31/02/2024',
    'US phone': '12345',
    'Any phone': '+44 20',
    'ZIP code': 'ABCDE',
    'A short word': 'abcdefgh',
  });
  await next(page);
  expect(await errorOf(page, 'QID6')).toBe('Please enter a valid email address.');
  expect(await errorOf(page, 'QID7')).toBe('Please enter a valid date (dd/mm/yyyy).');
  expect(await errorOf(page, 'QID8')).toBe('Please enter a valid phone number.');
  expect(await errorOf(page, 'QID9')).toBe('Please enter a valid phone number.');
  expect(await errorOf(page, 'QID10')).toBe('Please enter a valid postal code.');
  expect(await errorOf(page, 'QID11')).toBe('Please enter no more than 5 characters.');
  await fill({
    'Your email': 'ada@example.org',
    'A date': '29/02/2024',
    'US phone': '(212) 555-0199',
    'Any phone': '+44 20 7946 0958',
    'ZIP code': '90210-1234',
    'A short word': 'abc',
  });
  await next(page);

  // Page 3: the forced upload, a refused type, then the file; the requested signature asks once.
  await next(page);
  expect(await errorOf(page, 'QID12')).toBe('Please answer this question.');
  const input = page.locator('input[type=file]');
  await input.setInputFiles({
    name: 'tool.exe',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from('MZ'),
  });
  await next(page);
  expect(await errorOf(page, 'QID12')).toBe('Please upload a file of one of these types: txt, pdf.');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from(CV) });
  await next(page);
  expect(await page.locator('.summary.requested').count()).toBe(1);
  expect(await page.locator('#q-QID12 .hint').nth(1).textContent()).toBe('Uploaded: cv.txt (1 KB)');
  // Drawn with the mouse on the pad.
  const pad = (await page.locator('.signature canvas').boundingBox()) as { x: number; y: number };
  await page.mouse.move(pad.x + 20, pad.y + 30);
  await page.mouse.down();
  await page.mouse.move(pad.x + 120, pad.y + 60, { steps: 5 });
  await page.mouse.move(pad.x + 200, pad.y + 20, { steps: 5 });
  await page.mouse.up();
  await next(page);
  expect(await page.locator('.end').count()).toBe(1);
}

describe('sliders, stars, bars, validation, files, signature, meta info, timing', () => {
  it('records every answer, read back over the API', async () => {
    expect(responseId).toMatch(/^R_/);
    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(res.status).toBe(200);
    const { values } = res.body.result;
    expect(values).toMatchObject({
      QID1_1: 75,
      QID2_1: 4,
      QID3_1: 7.3,
      QID4_BROWSER: 'Chrome',
      QID4_OS: 'Linux',
      QID6_TEXT: 'ada@example.org',
      QID7_TEXT: '29/02/2024',
      QID8_TEXT: '(212) 555-0199',
      QID9_TEXT: '+44 20 7946 0958',
      QID10_TEXT: '90210-1234',
      QID11_TEXT: 'abc',
      QID12_FILE_NAME: 'cv.txt',
      QID12_FILE_SIZE: Buffer.byteLength(CV),
      QID12_FILE_TYPE: 'text/plain',
      QID13_FILE_NAME: 'signature.png',
      QID13_FILE_TYPE: 'image/png',
    });
    expect(values.QID1_2).toBeUndefined(); // not applicable
    expect(values.QID4_VERSION).toMatch(/^\d+\./);
    expect(values.QID4_RESOLUTION).toMatch(/^\d+x\d+$/);
    expect(values.QID5_PAGE_SUBMIT).toBeGreaterThan(0);
    expect(values.QID5_CLICK_COUNT).toBeGreaterThan(0);
    expect(values.QID12_FILE_ID).toMatch(/^F_[A-Za-z0-9]{15}$/);
  });

  it('serves the uploaded file and the signature to the survey owner, and to no other organisation', async () => {
    const { values } = (
      await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)
    ).body.result;
    const url = (fileId: string) =>
      `/API/v3/surveys/${surveyId}/responses/${responseId}/uploaded-files/${fileId}`;
    const file = await downloadFile(t, org.apiToken, url(values.QID12_FILE_ID));
    expect(file.status).toBe(200);
    expect(file.bytes.toString('utf8')).toBe(CV);
    const signature = await downloadFile(t, org.apiToken, url(values.QID13_FILE_ID));
    expect(signature.status).toBe(200);
    expect([...signature.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
    expect(signature.bytes.length).toBe(values.QID13_FILE_SIZE);
    const other = await t.newOrganization();
    expect((await downloadFile(t, other.apiToken, url(values.QID12_FILE_ID))).status).toBe(404);
    const unknown = await downloadFile(t, org.apiToken, url('F_000000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.json().meta.error.errorCode).toBe('FW_RSP_4');
  });

  it('exports the real columns in csv and .sav', async () => {
    const csv = await exportCsv(t, org.apiToken, surveyId);
    const at = (name: string) => csv.data[0]?.[csv.names.indexOf(name)];
    const names = [
      'Q12_Id',
      'Q12_Name',
      'Q12_Size',
      'Q12_Type',
      'Q13_Id',
      'Q13_Name',
      'Q13_Size',
      'Q13_Type',
    ];
    expect(names.filter((n) => !csv.names.includes(n))).toEqual([]);
    expect(csv.importIds[csv.names.indexOf('Q12_Id')]).toBe('{"ImportId":"QID12_FILE_ID"}');
    expect(csv.importIds[csv.names.indexOf('Q4_Operating System')]).toBe('{"ImportId":"QID4_OS"}');
    expect([at('Q12_Name'), at('Q12_Size'), at('Q12_Type'), at('Q13_Type')]).toEqual([
      'cv.txt',
      String(Buffer.byteLength(CV)),
      'text/plain',
      'image/png',
    ]);
    expect([at('Q1_1'), at('Q1_2'), at('Q2_1'), at('Q3_1'), at('Q4_Browser'), at('Q6')]).toEqual([
      '75',
      '',
      '4',
      '7.3',
      'Chrome',
      'ada@example.org',
    ]);

    const started = await startExport(t, org.apiToken, surveyId, { format: 'spss', compress: false });
    expect(started.status).toBe(200);
    const { last } = await waitForExport(
      t,
      org.apiToken,
      `${exportsBase(surveyId)}/${started.body.result.progressId}`,
    );
    const sav = await downloadFile(
      t,
      org.apiToken,
      `${exportsBase(surveyId)}/${last.body.result.fileId}/file`,
    );
    const { tables } = await readSavWithPspp(sav.bytes);
    const formats = new Map((tables.get('Variables') ?? []).slice(1).map((r) => [r[0], r.join(' ')]));
    expect(formats.get('Q12_Name')).toMatch(/\bA\d+\b/);
    expect(formats.get('Q12_Size')).toMatch(/\bF40\.2\b/);
    expect(formats.get('Q4_Browser')).toMatch(/\bA\d+\b/);
    const [row] = dataRows(tables);
    expect(row?.get('Q12_Name')?.trim()).toBe('cv.txt');
    expect(Number(row?.get('Q12_Size'))).toBe(Buffer.byteLength(CV));
    expect(Number(row?.get('Q2_1'))).toBe(4);
  });
});
