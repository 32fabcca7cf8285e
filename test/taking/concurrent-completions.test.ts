import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { engineFixture, importSurvey } from '../engine/engine-helpers.js';
import { FormClient } from '../engine/form-client.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { createUserWithToken } from '../helpers/factories.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 20 (decision 0012): completions no longer write the survey row. Numbers come from a sequence and
 * the survey's counts from its responses, so many completions at once (through the API and through the
 * pages) must still get distinct numbers in recorded order, exact counts on the survey and its owner, an
 * owner change in the middle of them must move exactly what was recorded, and an export taken while they
 * run, then continued, must have every response once.
 */

let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const PAGES: Record<string, string>[] = [
  { QID1: '1' },
  { QID2_TEXT: 'Rex', QID3: '1' },
  { QID4_1: '1', QID4_2: '2', _fw_action: 'continue' },
];

/** One respondent through the pages to the end page. */
async function takeSurvey(surveyId: string): Promise<void> {
  const client = new FormClient(t);
  const path = `/jfe/form/${surveyId}`;
  let page = await client.get(path);
  for (const fields of PAGES) page = await client.post(path, page.body, fields);
  expect(page.status).toBe(200);
  expect(page.body).toContain('Thank you for telling us about your pets.');
}

async function postResponse(surveyId: string, i: number): Promise<string> {
  const values = { QID1: '2', QID2_TEXT: `api ${i}` };
  const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.responseId as string;
}

/** 30 responses through the API and 20 through the pages, all at once. */
function fiftyAtOnce(surveyId: string): Promise<unknown[]> {
  return Promise.all([
    ...Array.from({ length: 30 }, (_, i) => postResponse(surveyId, i)),
    ...Array.from({ length: 20 }, () => takeSurvey(surveyId)),
  ]);
}

const seqsOf = async (surveyId: string) =>
  (
    await t.database.db
      .selectFrom('responses')
      .select(['id', 'seq'])
      .where('survey_id', '=', surveyId)
      .orderBy('seq')
      .execute()
  ).map((row) => ({ id: row.id, seq: Number(row.seq) }));

const surveyCounts = async (surveyId: string) =>
  (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).body.result.responseCounts;
const userCounts = async (userId: string) =>
  (await t.call(org.apiToken, 'GET', `/API/v3/users/${userId}`)).body.result.responseCounts;

describe('completions at once', () => {
  it('50 concurrent completions: 50 distinct numbers, exact counts on the survey and its owner', async () => {
    const { userId, token } = await createUserWithToken(t, org.apiToken, 'UT_BRANDADMIN');
    const surveyId = await importSurvey(t, token, engineFixture('pets.qsf'));
    await fiftyAtOnce(surveyId);

    const seqs = await seqsOf(surveyId);
    expect(seqs).toHaveLength(50);
    expect(new Set(seqs.map((s) => s.seq)).size).toBe(50);
    expect(await surveyCounts(surveyId)).toEqual({ auditable: 50, generated: 0, deleted: 0 });
    expect(await userCounts(userId)).toEqual({ auditable: 50, generated: 0, deleted: 0 });

    // Deleting one moves it to deleted on both; the numbers of the others stay.
    const gone = seqs[7]?.id as string;
    const del = await t.call(org.apiToken, 'DELETE', `/API/v3/surveys/${surveyId}/responses/${gone}`);
    expect(del.status).toBe(200);
    expect(await surveyCounts(surveyId)).toEqual({ auditable: 49, generated: 0, deleted: 1 });
    expect(await userCounts(userId)).toEqual({ auditable: 49, generated: 0, deleted: 1 });
    expect(await seqsOf(surveyId)).toEqual(seqs.filter((s) => s.id !== gone));
  });

  it('an owner change among them moves exactly what was recorded: the new owner ends with all 50', async () => {
    const first = await createUserWithToken(t, org.apiToken);
    const second = await createUserWithToken(t, org.apiToken);
    const surveyId = await importSurvey(t, first.token, engineFixture('pets.qsf'));
    const change = async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const put = await t.call(org.apiToken, 'PUT', `/API/v3/surveys/${surveyId}`, {
        ownerId: second.userId,
      });
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    };
    await Promise.all([fiftyAtOnce(surveyId), change()]);

    expect(await surveyCounts(surveyId)).toEqual({ auditable: 50, generated: 0, deleted: 0 });
    expect(await userCounts(first.userId)).toEqual({ auditable: 0, generated: 0, deleted: 0 });
    expect(await userCounts(second.userId)).toEqual({ auditable: 50, generated: 0, deleted: 0 });
  });

  it('an export taken while they run, then continued, has every response once, in recorded order', async () => {
    const surveyId = await importSurvey(t, org.apiToken, engineFixture('pets.qsf'));
    await fiftyAtOnce(surveyId);
    const [, during] = await Promise.all([
      fiftyAtOnce(surveyId),
      exportCsv(t, org.apiToken, surveyId, { allowContinuation: true }),
    ]);
    const token = during.status.body.result.continuationToken as string;
    expect(token).toEqual(expect.any(String));
    const after = await exportCsv(t, org.apiToken, surveyId, { continuationToken: token });

    const recorded = (await seqsOf(surveyId)).map((s) => s.id);
    expect(recorded).toHaveLength(100);
    expect(during.responseIds.length).toBeGreaterThanOrEqual(50);
    // Each export lists its responses in recorded order, and the two together are every response once.
    expect([...during.responseIds, ...after.responseIds]).toEqual(recorded);
  });
});
