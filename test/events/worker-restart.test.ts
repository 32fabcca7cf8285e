import { afterAll, beforeAll, expect, it } from 'vitest';
import { completedResponseTopic } from '../../src/events/topics.js';
import type { TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { completedPayload, emit, eventsTestApp, SURVEY_ID, testWorker } from './event-fixtures.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  ({ t } = await eventsTestApp());
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

it('delivers again after being stopped and started, and stops twice without error', async () => {
  const org = await t.newOrganization();
  const created = await t.call(org.apiToken, 'POST', '/API/v3/eventsubscriptions', {
    publicationUrl: receiver.url,
    topics: 'surveyengine.completedResponse.*',
  });
  expect(created.status).toBe(200);
  const worker = testWorker(t);
  worker.start();
  await worker.stop();
  worker.start();
  await emit(t, org.brandId, completedResponseTopic(SURVEY_ID), completedPayload());
  expect(await worker.deliverDue()).toBe(1);
  await worker.stop();
  await worker.stop();
  expect(receiver.received).toHaveLength(1);
});
