/**
 * What the last page's post reads, on both engines (issue 20, decision 0012): the organisation's
 * subscriptions are read beside the recording's transaction, asked for before the transaction reads the
 * survey, so on PostgreSQL the transaction waits for one round trip fewer between its begin and its commit.
 * The completion's delivery is made all the same.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { subscribeToCompletions } from '../events/event-fixtures.js';
import { notingReads, type TableRead } from '../helpers/table-reads.js';
import { buildTestApp, openTestDatabase, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { engineFixture, importSurvey, PETS_PAGES } from './engine-helpers.js';
import { FormClient } from './form-client.js';

let t: TestApp;
let drop: () => Promise<void>;
let org: BootstrapResult;
let receiver: WebhookReceiver;
let reads: TableRead[];

beforeAll(async () => {
  const opened = await openTestDatabase();
  drop = opened.drop;
  const noting = notingReads(opened.database);
  reads = noting.reads;
  t = await buildTestApp({ database: noting.database, config: { allowPrivateTargets: true } });
  org = await t.newOrganization();
  receiver = await startWebhookReceiver();
  await subscribeToCompletions(t, org.apiToken, receiver.url);
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
  await drop?.();
});

it('asks for the subscriptions before the recording transaction reads the survey, and still delivers', async () => {
  const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
  const url = `/jfe/form/${surveyId}`;
  const client = new FormClient(t);
  const beforeLast = await client.answerPages(url, PETS_PAGES.slice(0, -1));
  const from = reads.length;
  const page = await client.answerPages(url, PETS_PAGES.slice(-1), beforeLast);
  expect(page.status).toBe(200);

  const asked = reads
    .slice(from)
    .filter((read) => read.step === 'ask')
    .map((read) => read.table)
    .filter((table) => table === 'surveys' || table === 'event_subscriptions');
  // The page's own read of the survey, the subscriptions, then the recording's read of the survey.
  expect(asked).toEqual(['surveys', 'event_subscriptions', 'surveys']);

  const db = t.database.db;
  const response = await db
    .selectFrom('responses')
    .select('id')
    .where('survey_id', '=', surveyId)
    .executeTakeFirstOrThrow();
  const events = await db.selectFrom('events').select(['id', 'payload']).execute();
  const event = events.find((e) => JSON.parse(e.payload).ResponseID === response.id);
  const deliveries = await db
    .selectFrom('event_deliveries')
    .select('subscription_id')
    .where('event_id', '=', event?.id ?? '')
    .execute();
  expect(deliveries).toHaveLength(1);
});
