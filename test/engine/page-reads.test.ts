/**
 * What a survey page request reads, on both engines (issue 20): the survey of the link and the session of
 * the cookie are read side by side, so that on PostgreSQL the two wait on the database together, not one
 * after the other.
 */
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, openTestDatabase, type TestApp } from '../helpers/test-app.js';
import { engineFixture, importSurvey } from './engine-helpers.js';
import { FormClient } from './form-client.js';

let t: TestApp;
let org: BootstrapResult;
/** The reads of `surveys` and `engine_sessions`, as they are asked for and as they answer. */
const events: string[] = [];
let recording = false;

const tableOf = (node: unknown): string | undefined =>
  ['engine_sessions', 'surveys'].find((table) => JSON.stringify(node).includes(`"${table}"`));

beforeAll(async () => {
  const { database } = await openTestDatabase();
  const asked = new Map<object, string>();
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      const table = args.node.kind === 'SelectQueryNode' ? tableOf(args.node.from) : undefined;
      if (recording && table) {
        asked.set(args.queryId, table);
        events.push(`ask ${table}`);
      }
      return args.node;
    },
    transformResult: async (args) => {
      const table = asked.get(args.queryId);
      if (table) events.push(`answer ${table}`);
      return args.result;
    },
  };
  t = await buildTestApp({ database: { ...database, db: database.db.withPlugin(plugin) } });
  org = await t.newOrganization();
});
afterAll(() => t?.close());

describe('a survey page request', () => {
  it('asks for the session before the survey has answered, on a GET and on a POST', async () => {
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const url = `/jfe/form/${surveyId}`;
    const client = new FormClient(t);
    const first = await client.get(url); // a new session: its cookie

    for (const send of [() => client.get(url), () => client.post(url, first.body, { QID1: '2' })]) {
      events.length = 0;
      recording = true;
      const page = await send();
      recording = false;
      expect(page.status).toBe(200);
      // Both reads are asked for before either answers (one after the other, the survey would answer first).
      expect(events.slice(0, 2).sort()).toEqual(['ask engine_sessions', 'ask surveys']);
      expect(events.slice(2, 4).sort()).toEqual(['answer engine_sessions', 'answer surveys']);
    }
  });
});
