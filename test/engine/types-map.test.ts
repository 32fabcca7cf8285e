import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { seriousViolations } from './axe.js';
import { importSurvey, launchBrowser, listenOnLoopback, newResponseId, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

/**
 * Heat map and hot spot questions in Debian's chromium: one respondent clicks the images, another answers
 * with the keyboard (the regions' radio buttons and check boxes); both responses read back over the API,
 * and the csv columns (docs/exports.md).
 */

let t: TestApp;
let base: string;
let browser: Browser;
let worker: JobWorker;
let org: BootstrapResult;
let surveyId: string;
/** The responses recorded so far (each test's respondent adds one). */
const seen: string[] = [];

/** A 400×200 PNG, one colour, as a `data:` URL (the page shows raster `data:` images). */
function image(): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(400, 0);
  header.writeUInt32BE(200, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(400 * 3, 0xcc)]);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array<Buffer>(200).fill(row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

const LEFT = { X: 0, Y: 0, Width: 200, Height: 200 };
const RIGHT = { X: 200, Y: 0, Width: 200, Height: 200 };

function mapSurvey() {
  const src = image();
  return qsf({
    blocks: [block('BL_map0000000000001', ['QID1', 'QID2'])],
    flow: [blockFlow('BL_map0000000000001', 'FL_2')],
    questions: [
      // As public QSF readers show them: `Regions` a list of bounding boxes (and polygons, not read); a
      // heat map's regions name no choice (its choice 1 is the click), a hot spot's name theirs.
      question('QID1', {
        type: 'HeatMap',
        selector: 'Image',
        text: 'Where would you go first?',
        choices: ['X,Y'],
        force: 'ON',
        extra: {
          Graphics: src,
          GraphicsDescription: 'The shop floor',
          Clicks: 1,
          Regions: [
            { Description: 'Entrance', Type: 'Polygon', Shapes: [[]], ...LEFT },
            { Description: 'Till', Type: 'Polygon', Shapes: [[]], ...RIGHT },
          ],
        },
      }),
      // The image in the question text.
      question('QID2', {
        type: 'HotSpot',
        selector: 'OnOff',
        text: `<p>Which parts do you like?</p><img src="${src}" alt="The shop window">`,
        choices: ['Left window', 'Right window'],
        extra: {
          Regions: [
            { ChoiceID: '1', Description: 'Region #1', ...LEFT },
            { ChoiceID: '2', Description: 'Region #2', ...RIGHT },
          ],
        },
      }),
    ],
  });
}

beforeAll(async () => {
  t = await buildTestApp();
  worker = startExportWorker(t);
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  surveyId = await importSurvey(t, org.apiToken, JSON.stringify(mapSurvey()));
});
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await t?.close();
});

async function withPage(run: (page: Page) => Promise<void>): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(10_000);
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
  return newResponseId(t, surveyId, seen);
}

async function valuesOf(responseId: string): Promise<Record<string, unknown>> {
  const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
  expect(res.status).toBe(200);
  return res.body.result.values;
}

describe('heat map and hot spot', () => {
  let clicked: string;
  let typed: string;

  it('records a click on each image, in the image’s own pixels', async () => {
    clicked = await withPage(async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      // The forced heat map, not clicked.
      await next(page);
      expect(await page.locator('#q-QID1 .error').textContent()).toBe('Please answer this question.');
      const heat = page.locator('#q-QID1 .map img');
      expect(await heat.getAttribute('alt')).toBe('The shop floor');
      expect(await heat.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(400);
      await heat.click({ position: { x: 300, y: 50 } });
      expect(await page.getByRole('radio', { name: 'Till' }).isChecked()).toBe(true);
      // The hot spot: the left window on, then the right on and off again.
      const spot = page.locator('#q-QID2 .map img');
      expect(await spot.getAttribute('alt')).toBe('The shop window');
      await spot.click({ position: { x: 50, y: 150 } });
      await spot.click({ position: { x: 350, y: 20 } });
      await spot.click({ position: { x: 351, y: 21 } });
      expect(await page.locator('#q-QID2 .map-region.on').count()).toBe(1);
      expect(await page.getByRole('checkbox', { name: 'Left window' }).isChecked()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
      expect(await page.locator('.end').count()).toBe(1);
    });
    const values = await valuesOf(clicked);
    expect(values).toMatchObject({ QID1_1_x: 300, QID1_1_y: 50, QID1_2: 1, QID2_1: 1, QID2_2: 2 });
    expect(values.QID1_1).toBeUndefined();
  });

  it('takes the regions from the keyboard', async () => {
    typed = await withPage(async (page) => {
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByRole('radio', { name: 'Entrance' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab'); // past the radio group, to the hot spot's first box
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      expect(await page.getByRole('checkbox', { name: 'Right window' }).isChecked()).toBe(true);
      await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
      expect(await page.locator('.end').count()).toBe(1);
    });
    const values = await valuesOf(typed);
    expect(values).toMatchObject({ QID1_1: 1, QID2_1: 2, QID2_2: 1 });
    expect(values.QID1_1_x).toBeUndefined();
    expect(values.QID1_2).toBeUndefined();
  });

  it('exports the click and the regions as csv columns', async () => {
    const csv = await exportCsv(t, org.apiToken, surveyId);
    // A region of the heat map is a choice of QID1, as multi-answer choices are exported.
    const ids = [
      '{"ImportId":"QID1_1_x"}',
      '{"ImportId":"QID1_1_y"}',
      '{"ImportId":"QID1","choiceId":"1"}',
      '{"ImportId":"QID1","choiceId":"2"}',
      '{"ImportId":"QID2_1"}',
      '{"ImportId":"QID2_2"}',
    ];
    const column = (importId: string) => csv.importIds.indexOf(importId);
    expect(ids.filter((id) => column(id) < 0)).toEqual([]);
    expect(ids.map((id) => csv.names[column(id)])).toEqual([
      'Q1_1_x',
      'Q1_1_y',
      'Q1_1',
      'Q1_2',
      'Q2_1',
      'Q2_2',
    ]);
    const rowOf = (responseId: string) => csv.data[csv.responseIds.indexOf(responseId)] as string[];
    expect(ids.map((id) => rowOf(clicked)[column(id)])).toEqual(['300', '50', '', '1', '1', '2']);
    expect(ids.map((id) => rowOf(typed)[column(id)])).toEqual(['', '', '1', '', '2', '1']);
  });
});
