import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobBlobs } from '../../src/jobs/job-files.js';
import {
  type JobContext,
  JobFailure,
  JobRegistry,
  JobWorker,
  type RunningJob,
} from '../../src/jobs/job-runner.js';
import {
  type ExportPayload,
  RESPONSE_EXPORT_JOB,
  responseExportJob,
} from '../../src/modules/exports/response-export.job.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

let t: TestApp;
let org: BootstrapResult;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await t.close();
});

const deps = () => ({ db: t.database.db, clock: t.clock, config: testConfig() });

/** A context that records every checkpoint instead of writing it. */
function recordingContext(seen: { percent: number; result: unknown }[]): JobContext {
  return {
    signal: new AbortController().signal,
    now: () => t.clock.now(),
    checkpoint: async (_db, percent, result) => {
      seen.push({ percent, result });
    },
  };
}

async function queueExport(surveyId: string, body: Record<string, unknown> = {}) {
  const res = await t.call(org.apiToken, 'POST', '/API/v3/responseexports', {
    surveyId,
    format: 'csv',
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = res.body.result.id as string;
  const row = await t.database.db
    .selectFrom('jobs')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const job: RunningJob = {
    id,
    organizationId: row.organization_id,
    kind: row.kind,
    payload: JSON.parse(row.payload),
    result: null,
    attempts: 1,
  };
  return job;
}

describe('the response export job', () => {
  it('counts first and reports honest progress as rows are written, then the file', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    for (const text of ['one', 'two', 'three']) {
      const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
        values: { QID3_TEXT: text },
      });
      expect(res.status).toBe(200);
    }
    const job = await queueExport(surveyId);
    const seen: { percent: number; result: unknown }[] = [];
    const result = await responseExportJob(deps(), { checkpointRows: 1 }).run(job, recordingContext(seen));
    expect(seen.map((s) => s.percent)).toEqual([0, 33, 66, 99]);
    expect(seen[0]?.result).toEqual({ rowsWritten: 0, rowsTotal: 3 });
    expect(result).toEqual({
      rowsWritten: 3,
      rowsTotal: 3,
      fileName: 'Fruit survey.zip',
      contentType: 'application/zip',
      expiresAt: expect.any(String),
    });
    expect((await jobBlobs(deps()).stat((job.payload as ExportPayload).file))?.size).toBeGreaterThan(0);
  });

  it('fails with a reason when the survey was deleted; the status says failed and the file answers 409', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const job = await queueExport(surveyId);
    const deleted = await t.call(org.apiToken, 'DELETE', `/API/v3/surveys/${surveyId}`);
    expect(deleted.status).toBe(200);
    await expect(responseExportJob(deps()).run(job, recordingContext([]))).rejects.toThrow(JobFailure);

    const registry = new JobRegistry();
    registry.register(RESPONSE_EXPORT_JOB, responseExportJob(deps()));
    const worker = new JobWorker({ db: t.database.db, clock: t.clock, registry });
    while ((await worker.runOnce()) > 0) {}
    const status = await t.call(org.apiToken, 'GET', `/API/v3/responseexports/${job.id}`);
    expect(status.body.result).toEqual({ percentComplete: 0, status: 'failed' });
    const file = await t.call(org.apiToken, 'GET', `/API/v3/responseexports/${job.id}/file`);
    expect(file.status).toBe(409);
    expect(file.body.meta.error.errorCode).toBe('FW_EXP_2');
    expect(file.body.meta.error.errorMessage).toContain('The survey was deleted.');
  });
});
