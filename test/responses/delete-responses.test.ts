import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import { exportCsv } from '../exports/export-runs.js';
import { startExportWorker } from '../exports/exports-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

let t: TestApp;
let worker: JobWorker;
let org: { apiToken: string; userId: string };

beforeAll(async () => {
  t = await buildTestApp();
  worker = startExportWorker(t);
  org = await t.newOrganization();
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

const record = async (surveyId: string, values: Record<string, unknown>) =>
  (await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values })).body.result
    .responseId as string;
const read = (surveyId: string, responseId: string) =>
  t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`);

describe('deleting a response', () => {
  it('takes it out of reads and exports and counts it as deleted, at both spellings of the call', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const first = await record(surveyId, { QID1: 10 });
    const second = await record(surveyId, { QID1: 20 });
    const kept = await record(surveyId, { QID1: 20 });
    expect((await exportCsv(t, org.apiToken, surveyId)).responseIds).toEqual([first, second, kept]);

    const legacy = await t.call(
      org.apiToken,
      'DELETE',
      `/API/v3/responses/${first}?surveyId=${surveyId}&decrementQuotas=true`,
    );
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);
    expect(legacy.body).not.toHaveProperty('result');
    const current = await t.call(org.apiToken, 'DELETE', `/API/v3/surveys/${surveyId}/responses/${second}`);
    expect(current.status).toBe(200);

    for (const id of [first, second]) {
      const gone = await read(surveyId, id);
      expect(gone.status).toBe(404);
      expect(gone.body.meta.error.errorCode).toBe('FW_RSP_1');
    }
    expect((await read(surveyId, kept)).status).toBe(200);
    const survey = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).body.result;
    expect(survey.responseCounts).toEqual({ auditable: 1, generated: 0, deleted: 2 });
    const owner = (await t.call(org.apiToken, 'GET', `/API/v3/users/${org.userId}`)).body.result;
    expect(owner.responseCounts.deleted).toBeGreaterThanOrEqual(2);
    // Only the delete that asked for it took its response off the quotas.
    const quotas = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/quotas`)).body.result
      .elements;
    expect(quotas.map((q: { count: number }) => q.count)).toEqual([0, 2]);
    const exported = await exportCsv(t, org.apiToken, surveyId);
    expect(exported.responseIds).toEqual([kept]);
    const legacyExport = await exportCsv(t, org.apiToken, surveyId, {}, 'legacy');
    expect(legacyExport.responseIds).toEqual([kept]);
  });

  it('answers the legacy call 400 without surveyId, 404 for another survey, and 404 once deleted', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const other = await importSmallSurvey(t, org.apiToken);
    const id = await record(surveyId, { QID1: 10 });
    const missing = await t.call(org.apiToken, 'DELETE', `/API/v3/responses/${id}`);
    expect(missing.status).toBe(400);
    expect(missing.body.meta.error.errorCode).toBe('FW_VAL_1');
    expect(missing.body.meta.error.errorMessage).toContain('surveyId');
    const wrong = await t.call(org.apiToken, 'DELETE', `/API/v3/responses/${id}?surveyId=${other}`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.meta.error.errorCode).toBe('FW_RSP_1');
    const noSurvey = await t.call(
      org.apiToken,
      'DELETE',
      `/API/v3/responses/${id}?surveyId=SV_nothinghere1234`,
    );
    expect(noSurvey.body.meta.error.errorCode).toBe('GSI_2');
    expect((await read(surveyId, id)).status).toBe(200);
    const deleted = await t.call(org.apiToken, 'DELETE', `/API/v3/responses/${id}?surveyId=${surveyId}`);
    expect(deleted.status).toBe(200);
    const again = await t.call(org.apiToken, 'DELETE', `/API/v3/responses/${id}?surveyId=${surveyId}`);
    expect(again.status).toBe(404);
    const counts = (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}`)).body.result
      .responseCounts;
    expect(counts).toEqual({ auditable: 0, generated: 0, deleted: 1 });
  });
});
