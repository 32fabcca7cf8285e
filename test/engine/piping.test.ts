// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written as QSF files write it
/**
 * Piped text in the browser (issue 13 item 4): evaluated when the page is drawn, with the embedded data as
 * set so far in the flow; `${rand://int/a:b}` in an embedded-data element stores the number drawn; answers,
 * dates and unknown pipes (empty on the page, named at import).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadQsf } from '../surveys/survey-helpers.js';
import { launchBrowser, listenOnLoopback, next } from './engine-helpers.js';
import { block, blockFlow, qsf, question } from './qsf-builder.js';

let t: TestApp;
let base: string;
let browser: Browser;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  org = await t.newOrganization();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

const setField = (flowId: string, field: string, value: string) => ({
  Type: 'EmbeddedData',
  FlowID: flowId,
  EmbeddedData: [{ Description: field, Type: 'Custom', Field: field, Value: value }],
});

const DOC = qsf({
  blocks: [block('BL_1', ['QID1']), block('BL_2', ['QID2']), block('BL_3', ['QID3'])],
  questions: [
    question('QID1', {
      type: 'MC',
      selector: 'MAVR',
      text: 'Hello ${e://Field/city}. Which fruit?',
      choices: ['Apple', 'Pear', 'Plum'],
    }),
    question('QID2', {
      type: 'TE',
      selector: 'SL',
      text: 'Stage ${e://Field/stage}; fruit ${q://QID1/ChoiceGroup/SelectedChoices}; not ${q://QID1/ChoiceGroup/NotSelectedChoices}; on ${date://CurrentDate/DS}; [${gr://SC_abc/Score}]',
    }),
    question('QID3', {
      type: 'TE',
      selector: 'SL',
      text: 'Now ${e://Field/stage}, lucky ${e://Field/lucky}, said ${q://QID2/ChoiceTextEntryValue}',
    }),
  ],
  flow: [
    {
      Type: 'EmbeddedData',
      FlowID: 'FL_2',
      EmbeddedData: [{ Description: 'city', Type: 'Recipient', Field: 'city' }],
    },
    blockFlow('BL_1', 'FL_3'),
    setField('FL_4', 'stage', 'early'),
    blockFlow('BL_2', 'FL_5'),
    setField('FL_6', 'stage', 'late'),
    setField('FL_7', 'lucky', '${rand://int/1:9}'),
    blockFlow('BL_3', 'FL_8'),
  ],
});

const legend = (page: Page) => page.locator('legend').first().textContent();

describe('piped text', () => {
  it('shows values as set before the page, stores the random number drawn, and names unknown pipes at import', async () => {
    const upload = await uploadQsf(t, org.apiToken, JSON.stringify(DOC));
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body.meta.notice).toContain(
      'QID2: piped text ${gr://SC_abc/Score} is not supported and shows empty.',
    );
    const surveyId = upload.body.result.id as string;
    await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, { isActive: true });

    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    await page.goto(`${base}/jfe/form/${surveyId}?city=Oslo%20%3Cb%3E`);
    expect(await legend(page)).toBe('Hello Oslo <b>. Which fruit?');
    await page.getByLabel('Apple').check();
    await page.getByLabel('Plum').check();
    await next(page);
    const today = (await t.clock.now()).toISOString().slice(0, 10);
    expect(await legend(page)).toBe(`Stage early; fruit Apple, Plum; not Pear; on ${today}; []`);
    await page.getByRole('textbox').fill('fine');
    await next(page);
    const third = (await legend(page)) ?? '';
    const lucky = /lucky (\d+),/.exec(third)?.[1];
    expect(third).toBe(`Now late, lucky ${lucky}, said fine`);
    expect(Number(lucky)).toBeGreaterThanOrEqual(1);
    expect(Number(lucky)).toBeLessThanOrEqual(9);
    // A reload draws nothing new.
    await page.reload();
    expect(await legend(page)).toBe(third);
    expect(await page.content()).not.toContain('${');
    await page.getByRole('textbox').fill('ok');
    await next(page);
    await context.close();

    const session = await t.database.db
      .selectFrom('engine_sessions')
      .select('response_id')
      .where('survey_id', '=', surveyId)
      .executeTakeFirstOrThrow();
    const res = await t.call(
      org.apiToken,
      'GET',
      `/API/v3/surveys/${surveyId}/responses/${session.response_id}`,
    );
    expect(res.body.result.values).toMatchObject({ lucky, stage: 'late', city: 'Oslo <b>' });
  });
});
