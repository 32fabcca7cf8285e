// biome-ignore-all lint/suspicious/noTemplateCurlyInString: piped text is written ${…}, in plain strings.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, listenOnLoopback, next } from '../engine/engine-helpers.js';
import { testWorker } from '../events/event-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { distributionBody, distributionWorld, hrefOf, type World } from './distribution-helpers.js';

/**
 * Issue 12 acceptance: a person follows the individual link of their e-mail in a browser, completes the
 * survey, and the completion event carries their contact id as RecipientID.
 */
let world: World;
let browser: Browser;
let receiver: WebhookReceiver;
let base: string;

beforeAll(async () => {
  world = await distributionWorld({ contacts: 3 });
  base = await listenOnLoopback(world.t);
  browser = await launchBrowser();
  receiver = await startWebhookReceiver();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await world?.close();
});

describe('an individual link in a browser', () => {
  it('opens the survey from the e-mail, records the response and names the contact in the event', async () => {
    const subscribed = await world.t.call(world.org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
      topics: 'surveyengine.completedResponse.*',
      publicationUrl: receiver.url,
    });
    expect(subscribed.status).toBe(200);
    // Made through the listening server, so the links in the messages point at it.
    const created = await fetch(`${base}/API/v3/distributions`, {
      method: 'POST',
      headers: { 'x-api-token': world.org.apiToken, 'content-type': 'application/json' },
      body: JSON.stringify(distributionBody(world)),
    });
    expect(created.status).toBe(200);
    const distributionId = ((await created.json()) as { result: { id: string } }).result.id;
    await world.runJobs();
    const contact = world.contacts[1] as { id: string; email: string; firstName: string };
    const mail = world.sink.received.find((m) => m.to.includes(contact.email));
    const link = hrefOf(String((await world.sink.parse(mail as never)).html), 'Take the survey');
    expect(link.startsWith(`${base}/jfe/form/${world.surveyId}/l/`)).toBe(true);

    const context = await browser.newContext();
    context.setDefaultTimeout(10_000);
    try {
      const page = await context.newPage();
      const opened = await page.goto(link);
      expect(opened?.status()).toBe(200);
      await page.getByLabel('Anything to add?').fill('Sent from a real browser');
      await next(page);
      await expect
        .poll(() => page.locator('body').textContent())
        .toContain('Your response has been recorded');
    } finally {
      await context.close();
    }

    await testWorker(world.t).deliverDue();
    await receiver.waitFor(1, 10_000);
    const event = JSON.parse(receiver.received[0]?.form.get('MSG') ?? '{}');
    expect(event).toMatchObject({
      RecipientID: contact.id,
      DistributionID: distributionId,
      SurveyID: world.surveyId,
    });
    const read = await world.t.call(world.org.apiToken, 'GET', `/API/v3/distributions/${distributionId}`);
    expect(read.body.result.stats).toMatchObject({ sent: 3, started: 1, finished: 1 });
  });
});
