import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { multipartImage } from '../graphics/graphics-helpers.js';
import { png } from '../graphics/images.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { seriousViolations } from './axe.js';
import { importSurvey, launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

/**
 * Issue 14 part 1: question text keeps the author's markup through an allow-list. A graphic uploaded
 * through `POST /v3/graphics` and one an imported survey names by its Qualtrics URL both show in the
 * question; another organisation's graphic does not (it stays a link to where the author had it); and
 * nothing the author wrote runs, even with the pages' Content-Security-Policy switched off.
 */

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;
let other: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
  other = await t.newOrganization();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** `POST /v3/graphics` as a client of this server would call it: the URL answered is on its host. */
async function uploadGraphic(token: string): Promise<{ id: string; url: string }> {
  const { body, headers } = multipartImage(png([0, 128, 0, 255]), { filename: 'chart.png' });
  const res = await t.call(token, 'POST', '/API/v3/graphics', body, { ...headers, host: new URL(base).host });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result;
}

const HOSTILE = [
  `<script>window.__ran.push('script')</script>`,
  `<img src="x" onerror="window.__ran.push('onerror')">`,
  `<svg onload="window.__ran.push('svg')"><script>window.__ran.push('svg script')</script></svg>`,
  `<a href="javascript:window.__ran.push('link')">click me</a>`,
  `<a href=" jav&#x09;ascript:window.__ran.push('encoded link')">click me too</a>`,
  `<iframe src="javascript:parent.__ran.push('frame')"></iframe>`,
  `<iframe srcdoc="<script>parent.__ran.push('srcdoc')</script>"></iframe>`,
  `<details open ontoggle="window.__ran.push('toggle')"><summary>More</summary></details>`,
  `<div onmouseover="window.__ran.push('hover')" style="position:fixed;inset:0">hover me</div>`,
  `<math><a xlink:href="javascript:window.__ran.push('math')">maths</a></math>`,
  `<form action="javascript:window.__ran.push('form')"><button>Send</button></form>`,
  `<object data="javascript:window.__ran.push('object')"></object><embed src="javascript:window.__ran.push('embed')">`,
  `<style>body{display:none}</style><meta http-equiv="refresh" content="0;url=javascript:window.__ran.push('meta')">`,
].join('');

function mediaSurvey(uploaded: string, imported: string, foreign: string) {
  const text = [
    `<p>Compare the two plans.</p><img src="${uploaded}" alt="Uploaded chart">`,
    '<table><tr><th>Attribute</th><th>Plan A</th><th>Plan B</th></tr><tr><td>Price</td><td>$10</td><td>$12</td></tr></table>',
    `<audio class="qmedia" controls="true"><source src="https://co1.qualtrics.com/ControlPanel/File.php?F=F_abc" type="audio/mpeg"><embed src="https://co1.qualtrics.com/flvplayer.swf"></audio>`,
    HOSTILE,
  ].join('');
  const choice = `<img src="https://co1.qualtrics.com/ControlPanel/Graphic.php?IM=${imported}" alt="Imported chart"> Plan A`;
  return qsf({
    blocks: [block('BL_media000000001', ['QID1', 'QID2'])],
    flow: [blockFlow('BL_media000000001', 'FL_2')],
    questions: [
      question('QID1', { type: 'DB', selector: 'TB', text }),
      question('QID2', {
        type: 'MC',
        selector: 'SAVR',
        text: `Which plan? <img src="https://sjc1.qualtrics.com/CP/Graphic.php?IM=${foreign}" alt="Another organisation's chart">${HOSTILE}`,
        choices: [choice, `Plan B${HOSTILE}`],
      }),
    ],
  });
}

/** The page's width and natural size of an image found by its text alternative (0 when not loaded). */
const imageSize = (page: Page, alt: string) =>
  page.locator(`img[alt="${alt}"]`).evaluate((img: HTMLImageElement) => img.naturalWidth);

/** Attributes that could run code, anywhere in the survey's markup. */
const runnableMarkup = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main *')].flatMap((el) => [
      ...(['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE', 'META', 'svg', 'math'].includes(el.tagName)
        ? [el.tagName]
        : []),
      ...[...el.attributes]
        .filter((a) => /^on/i.test(a.name) || /^\s*javascript:/i.test(a.value) || a.name === 'style')
        .map((a) => `${el.tagName} ${a.name}`),
    ]),
  );

describe('question text with images and hostile markup', () => {
  let surveyId: string;
  let imported: { id: string; url: string };
  beforeAll(async () => {
    const uploaded = await uploadGraphic(org.apiToken);
    imported = await uploadGraphic(org.apiToken);
    const foreign = await uploadGraphic(other.apiToken);
    surveyId = await importSurvey(
      t,
      org.apiToken,
      JSON.stringify(mediaSurvey(uploaded.url, imported.id, foreign.id)),
    );
  });

  async function openPage(context: BrowserContext): Promise<Page> {
    await context.addInitScript(() => {
      (window as unknown as { __ran: string[] }).__ran = [];
      (window as unknown as { __blocked: string[] }).__blocked = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { __blocked: string[] }).__blocked.push(event.violatedDirective),
      );
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => dialog.dismiss());
    await page.goto(`${base}/jfe/form/${surveyId}`, { waitUntil: 'load' });
    return page;
  }

  it('shows the uploaded and the imported graphic, a table and the recording as a link', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await openPage(context);
      expect(await imageSize(page, 'Uploaded chart')).toBe(1);
      expect(await imageSize(page, 'Imported chart')).toBe(1);
      expect(await page.locator('img[alt="Imported chart"]').getAttribute('src')).toBe(
        `${base}/graphics/${imported.id}`,
      );
      // The imported picture is part of the choice's label: the image answers for it.
      await page.getByRole('radio', { name: 'Imported chart Plan A' }).check();

      // Another organisation's graphic is not served for this survey: a link to where the author had it.
      expect(await page.locator('img[alt="Another organisation\'s chart"]').count()).toBe(0);
      const foreignLink = page.getByRole('link', { name: "Image: Another organisation's chart" });
      expect(await foreignLink.getAttribute('href')).toMatch(
        /^https:\/\/sjc1\.qualtrics\.com\/CP\/Graphic\.php\?IM=IM_/,
      );
      const audio = page.getByRole('link', { name: 'Audio' });
      expect(await audio.getAttribute('href')).toBe(
        'https://co1.qualtrics.com/ControlPanel/File.php?F=F_abc',
      );
      expect(await audio.getAttribute('rel')).toBe('noopener');

      const table = page.locator('.descriptive table');
      expect(await table.locator('th').allTextContents()).toEqual(['Attribute', 'Plan A', 'Plan B']);
      expect(await table.locator('td').allTextContents()).toEqual(['Price', '$10', '$12']);

      // Everything shown is within the pages' policy, and the page stays accessible.
      expect(await page.evaluate(() => (window as unknown as { __blocked: string[] }).__blocked)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await next(page);
      expect(await page.locator('.end').textContent()).toBeTruthy();
    } finally {
      await context.close();
    }
  });

  it('runs nothing the author wrote, even with the Content-Security-Policy switched off', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    context.setDefaultTimeout(10_000);
    try {
      const page = await openPage(context);
      expect(await runnableMarkup(page)).toEqual([]);
      // Where the handlers and links were, only their text is left: pointing and clicking there runs nothing.
      await page.locator('.descriptive').hover();
      await page.locator('legend').click();
      await page
        .getByText(/click me too/)
        .first()
        .click();
      expect(await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran)).toEqual([]);
      expect(page.url()).toBe(`${base}/jfe/form/${surveyId}`);
    } finally {
      await context.close();
    }
  });
});
