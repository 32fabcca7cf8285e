/**
 * What a survey page request reads, on both engines (issue 20): the survey of the link and the session of
 * the cookie are read side by side, so that on PostgreSQL the two wait on the database together, not one
 * after the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { appNotingReads, type TableRead } from '../helpers/table-reads.js';
import type { TestApp } from '../helpers/test-app.js';
import { engineFixture, importSurvey } from './engine-helpers.js';
import { FormClient } from './form-client.js';

let t: TestApp;
let close: () => Promise<void>;
let org: BootstrapResult;
let reads: TableRead[];

beforeAll(async () => {
  ({ t, reads, close } = await appNotingReads());
  org = await t.newOrganization();
});
afterAll(() => close?.());

/** The reads of `surveys` and `engine_sessions` since `from`, as `ask surveys`, `answer engine_sessions` … */
const pageReads = (from: number) =>
  reads
    .slice(from)
    .filter((read) => read.table === 'surveys' || read.table === 'engine_sessions')
    .map((read) => `${read.step} ${read.table}`);

describe('a survey page request', () => {
  it('asks for the session before the survey has answered, on a GET and on a POST', async () => {
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    const url = `/jfe/form/${surveyId}`;
    const client = new FormClient(t);
    const first = await client.get(url); // a new session: its cookie

    for (const send of [() => client.get(url), () => client.post(url, first.body, { QID1: '2' })]) {
      const from = reads.length;
      const page = await send();
      expect(page.status).toBe(200);
      const events = pageReads(from);
      // Both reads are asked for before either answers (one after the other, the survey would answer first).
      expect(events.slice(0, 2).sort()).toEqual(['ask engine_sessions', 'ask surveys']);
      expect(events.slice(2, 4).sort()).toEqual(['answer engine_sessions', 'answer surveys']);
    }
  });
});
