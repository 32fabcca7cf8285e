/**
 * How a completion writes, on both engines (issue 20, decision 0021): the last page's post closes the
 * session and records the response, its event, the event's delivery and the owner's counts with one
 * statement on PostgreSQL (a round trip each would wait for the event loop's turn under load); on SQLite,
 * where a statement is no round trip, one after another. And what it reads (decision 0012): the
 * organisation's subscriptions beside the recording's transaction, not in it.
 */
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { subscribeToCompletions } from '../events/event-fixtures.js';
import { notingReads, type TableRead } from '../helpers/table-reads.js';
import { buildTestApp, openTestDatabase, TEST_ENGINE, type TestApp } from '../helpers/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { engineFixture, importSurvey, PETS_PAGES } from './engine-helpers.js';
import { FormClient } from './form-client.js';

let t: TestApp;
let drop: () => Promise<void>;
let org: BootstrapResult;
let receiver: WebhookReceiver;
/** The kind of every statement run for the app, in order; `combined` for a statement of several writes. */
const executed: string[] = [];
let reads: TableRead[];

beforeAll(async () => {
  const opened = await openTestDatabase();
  drop = opened.drop;
  const kinds = new WeakMap<object, string>();
  const plugin: KyselyPlugin = {
    transformQuery: ({ node, queryId }) => {
      kinds.set(queryId, node.kind);
      return node;
    },
    // runWrites compiles its statement from the writes' nodes: the plugins never saw that statement's id.
    transformResult: async ({ queryId, result }) => {
      executed.push(kinds.get(queryId) ?? 'combined');
      return result;
    },
  };
  const noting = notingReads({ ...opened.database, db: opened.database.db.withPlugin(plugin) });
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

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'combined']);

it("the last page's writes go as one statement on PostgreSQL, and all of them are made", async () => {
  const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
  const url = `/jfe/form/${surveyId}`;
  const client = new FormClient(t);
  const beforeLast = await client.answerPages(url, PETS_PAGES.slice(0, -1));
  const from = executed.length;
  const page = await client.answerPages(url, PETS_PAGES.slice(-1), beforeLast);
  expect(page.status).toBe(200);
  const writes = executed.slice(from).filter((kind) => WRITES.has(kind));
  // The session, the response, its event, the event's delivery, the owner's counts.
  expect(writes).toEqual(
    TEST_ENGINE === 'postgres'
      ? ['combined']
      : ['UpdateQueryNode', 'InsertQueryNode', 'InsertQueryNode', 'InsertQueryNode', 'InsertQueryNode'],
  );

  const db = t.database.db;
  const [response] = await db.selectFrom('responses').selectAll().where('survey_id', '=', surveyId).execute();
  expect(response?.id).toMatch(/^R_/);
  const session = await db
    .selectFrom('engine_sessions')
    .select(['status', 'response_id'])
    .where('id', '=', response?.session_id ?? '')
    .executeTakeFirst();
  expect(session).toEqual({ status: 'complete', response_id: response?.id });
  const events = await db.selectFrom('events').select(['id', 'payload']).execute();
  const event = events.find((e) => JSON.parse(e.payload).ResponseID === response?.id);
  expect(event).toBeDefined();
  const deliveries = await db
    .selectFrom('event_deliveries')
    .select('id')
    .where('event_id', '=', event?.id ?? '')
    .execute();
  expect(deliveries).toHaveLength(1);
  const owner = await t.call(org.apiToken, 'GET', `/API/v3/users/${org.userId}`);
  expect(owner.body.result.responseCounts.auditable).toBe(1);
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
