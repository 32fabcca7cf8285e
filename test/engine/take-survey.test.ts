import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/events/delivery-worker.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { eventsTestApp, testWorker } from '../events/event-fixtures.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import {
  engineFixture,
  importSurvey,
  launchBrowser,
  listenOnLoopback,
  next,
  questionKeys,
} from './engine-helpers.js';

let t: TestApp;
let base: string;
let browser: Browser;
let worker: DeliveryWorker;
let receiver: WebhookReceiver;
let org: BootstrapResult;
const PETS = engineFixture('pets.qsf');

beforeAll(async () => {
  ({ t } = await eventsTestApp());
  worker = testWorker(t);
  base = await listenOnLoopback(t);
  browser = await launchBrowser();
  receiver = await startWebhookReceiver();
  org = await t.newOrganization();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await worker?.stop();
  await t?.close();
});

async function withContext<T>(run: (context: BrowserContext) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  context.setDefaultTimeout(10_000);
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

const sessionsOf = (surveyId: string) =>
  t.database.db.selectFrom('engine_sessions').selectAll().where('survey_id', '=', surveyId).execute();

describe('taking a survey in the browser', () => {
  it('hides the skipped question, blocks on the forced one, records exactly the answers given and delivers the completion event', async () => {
    const sub = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      publicationUrl: receiver.url,
      topics: 'surveyengine.completedResponse.*',
    });
    expect(sub.status).toBe(200);
    const surveyId = await importSurvey(t, org.apiToken, PETS);

    await withContext(async (context) => {
      const page = await context.newPage();
      const first = await page.goto(`${base}/jfe/form/${surveyId}?ResponseEventContext=campaign-42&other=x`);
      expect(first?.status()).toBe(200);
      await expect.poll(() => page.locator('legend').first().textContent()).toContain('Do you have a pet?');

      // The forced question blocks the page until it is answered.
      await next(page);
      expect(await page.locator('#q-QID1 .error').textContent()).toBe('Please answer this question.');
      expect(await page.locator('.summary a').getAttribute('href')).toBe('#q-QID1');
      await page.getByLabel('No', { exact: true }).check();
      await next(page);

      // Display logic: the pet's name is asked only of pet owners.
      expect(await page.locator('[name="QID2_TEXT"]').count()).toBe(0);
      expect(await page.locator('#q-QID2').count()).toBe(0);
      await page.getByLabel('Oranges').check();
      await next(page);

      // The matrix is forced too; the essay is only requested.
      await page.getByRole('radio', { name: 'Service: Good' }).check();
      await next(page);
      expect(await page.locator('#q-QID4 .error').textContent()).toBe(
        'Please answer every row of this question.',
      );
      expect(await page.getByRole('radio', { name: 'Service: Good' }).isChecked()).toBe(true);
      await page.getByRole('radio', { name: 'Price: Bad' }).check();
      await next(page);
      expect(await page.locator('.summary.requested').count()).toBe(1);
      await next(page, 'Continue without answering');
      expect(await page.locator('.end').textContent()).toBe('Thank you for telling us about your pets.');
    });

    const [session] = await sessionsOf(surveyId);
    expect(session?.status).toBe('complete');
    const responseId = session?.response_id as string;
    expect(responseId).toMatch(/^R_[A-Za-z0-9]{15}$/);

    const res = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);
    expect(res.status).toBe(200);
    const { values, labels } = res.body.result;
    expect(questionKeys(values)).toEqual(['QID1', 'QID3_1', 'QID4_1', 'QID4_2']);
    expect(values).toMatchObject({ QID1: 2, QID3_1: 1, QID4_1: 1, QID4_2: 2, finished: 1, progress: 100 });
    expect(labels).toMatchObject({ QID1: 'No', QID3_1: 'Oranges', QID4_1: 'Good', QID4_2: 'Bad' });
    expect(values.ResponseEventContext).toBe('campaign-42');
    expect(values.source).toBe('fixture');
    expect(values.other).toBeUndefined();

    await worker.deliverDue();
    await receiver.waitFor(1, 10_000);
    const msg = JSON.parse(receiver.received[0]?.form.get('MSG') ?? '{}');
    expect(msg).toMatchObject({
      Status: 'Complete',
      SurveyID: surveyId,
      ResponseID: responseId,
      ResponseEventContext: 'campaign-42',
      BrandID: org.brandId,
    });
    expect(msg.RecipientID).toBeUndefined();
  });

  it('continues the session after a reload, with the answers already given', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS);
    await withContext(async (context) => {
      const page = await context.newPage();
      await page.goto(`${base}/jfe/form/${surveyId}`);
      await page.getByLabel('Yes', { exact: true }).check();
      await next(page);
      await page.getByLabel("What is your pet's name?").fill('Rex');
      await next(page);
      expect(await page.locator('#q-QID4').count()).toBe(1);

      await page.reload();
      expect(await page.locator('#q-QID4').count()).toBe(1);
      await next(page, 'Back');
      expect(await page.getByLabel("What is your pet's name?").inputValue()).toBe('Rex');
      await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(await page.getByLabel("What is your pet's name?").inputValue()).toBe('Rex');
    });
    const sessions = await sessionsOf(surveyId);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]?.status).toBe('open');
  });

  it('shows the closed page for an inactive survey and records nothing', async () => {
    const surveyId = await importSurvey(t, org.apiToken, PETS, { active: false });
    await withContext(async (context) => {
      const page = await context.newPage();
      const res = await page.goto(`${base}/jfe/form/${surveyId}`);
      expect(res?.status()).toBe(403);
      expect(await page.locator('h1').textContent()).toBe('This survey is not currently active');
      expect(await page.locator('form').count()).toBe(0);
    });
    expect(await sessionsOf(surveyId)).toHaveLength(0);
    const survey = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`);
    expect(survey.body.result.responseCounts).toEqual({ auditable: 0, generated: 0, deleted: 0 });
  });
});
