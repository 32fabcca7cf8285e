import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobContext, JobWorker } from '../../src/jobs/job-runner.js';
import { responseUpdateJob } from '../../src/modules/responses/update-responses.job.js';
import {
  RESPONSE_UPDATE_JOB,
  type UpdatePayload,
  type UpdateProgress,
} from '../../src/modules/responses/update-responses.service.js';
import { multipartFile } from '../contacts/contacts-helpers.js';
import { startJobWorker } from '../helpers/jobs.js';
import { pollUntil } from '../helpers/poll.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { insertResponses } from './responses-fixture.js';

let t: TestApp;
let org: { apiToken: string; brandId: string };
let worker: JobWorker | undefined;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
});
afterAll(async () => {
  await worker?.stop();
  await t.close();
});

const base = (surveyId: string) => `/API/v3/surveys/${surveyId}/update-responses`;
const runWorker = () => {
  worker ??= startJobWorker(t, RESPONSE_UPDATE_JOB, responseUpdateJob, 10);
};
const finished = (surveyId: string, progressId: string) =>
  pollUntil(`update ${progressId} ends`, async () => {
    const res = await t.call(org.apiToken, 'GET', `${base(surveyId)}/${progressId}`);
    return res.body.result?.status === 'inProgress' ? undefined : res;
  });
const record = async (surveyId: string, values: Record<string, unknown>) =>
  (await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values })).body.result
    .responseId as string;
const valuesOf = async (surveyId: string, responseId: string) =>
  (await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/responses/${responseId}`)).body.result
    .values;

describe('POST /v3/surveys/{surveyId}/update-responses', () => {
  it('sets and removes embedded data of the listed responses as a job, failing a missing one alone', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const first = await record(surveyId, { QID1: 10, panel: 'a', wave: '1' });
    const second = await record(surveyId, { QID1: 20, panel: 'a' });
    const started = await t.call(org.apiToken, 'POST', base(surveyId), {
      updates: [
        { responseId: first, embeddedData: { panel: 'b', wave: null, score: 7 } },
        { responseId: 'R_nothinghere1234', embeddedData: { panel: 'x' } },
      ],
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(started.body.result).toMatchObject({ percentComplete: 0, status: 'inProgress' });
    expect(started.body.result.progressId).toMatch(/^PGRS_[A-Za-z0-9]{15}$/);
    runWorker();
    const done = await finished(surveyId, started.body.result.progressId);
    expect(done.body.result).toEqual({
      percentComplete: 100,
      status: 'complete',
      result: {
        total: 2,
        updated: 1,
        skipped: 0,
        failed: 1,
        errors: [
          {
            responseId: 'R_nothinghere1234',
            reason: `Response R_nothinghere1234 is not a response of survey ${surveyId}.`,
          },
        ],
      },
    });
    const changed = await valuesOf(surveyId, first);
    expect(changed).toMatchObject({ QID1: 10, panel: 'b', score: '7' });
    expect(changed).not.toHaveProperty('wave');
    expect(await valuesOf(surveyId, second)).toMatchObject({ panel: 'a' });
  });

  it('takes a CSV, raw or as a multipart file, and skips missing responses when told to', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const id = await record(surveyId, { QID1: 10, panel: 'a' });
    const raw = await t.call(
      org.apiToken,
      'POST',
      base(surveyId),
      `ResponseID,panel,wave\n${id},csv,\nR_nothinghere1234,x,y\n`,
      { 'content-type': 'text/csv' },
    );
    expect(raw.status, JSON.stringify(raw.body)).toBe(200);
    runWorker();
    const rawDone = await finished(surveyId, raw.body.result.progressId);
    expect(rawDone.body.result.result).toMatchObject({ updated: 1, failed: 1, skipped: 0 });
    expect(await valuesOf(surveyId, id)).toMatchObject({ panel: 'csv' });
    expect(await valuesOf(surveyId, id)).not.toHaveProperty('wave');

    const csv = `responseId,wave\n${id},3\nR_nothinghere1234,4\n`;
    const { body, headers } = multipartFile('updates.csv', csv, 'text/csv');
    const withField = Buffer.concat([
      Buffer.from(
        `--${headers['content-type'].split('boundary=')[1]}\r\nContent-Disposition: form-data; name="ignoreMissingResponses"\r\n\r\ntrue\r\n`,
      ),
      body,
    ]);
    const part = await t.call(org.apiToken, 'POST', base(surveyId), withField, headers);
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    const partDone = await finished(surveyId, part.body.result.progressId);
    expect(partDone.body.result.result).toMatchObject({ updated: 1, failed: 0, skipped: 1, errors: [] });
    expect(await valuesOf(surveyId, id)).toMatchObject({ panel: 'csv', wave: '3' });
  });

  it('refuses bad updates naming the field, and queues nothing', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const id = await record(surveyId, { QID1: 10 });
    const cases: [unknown, string, Record<string, string>?][] = [
      [{ updates: [] }, 'updates'],
      [{ updates: [{ responseId: id, embeddedData: { QID1: 'x' } }] }, 'updates[0].embeddedData.QID1'],
      [{ updates: [{ responseId: id, embeddedData: { status: '8' } }] }, 'updates[0].embeddedData.status'],
      [
        { updates: [{ responseId: id, embeddedData: { ResponseEventContext: 'c'.repeat(51) } }] },
        'ResponseEventContext',
      ],
      [{ updates: [{ embeddedData: {} }] }, 'responseId'],
      ['panel\na\n', 'responseId', { 'content-type': 'text/csv' }],
      [`responseId,panel\n${id},"open\n`, 'file', { 'content-type': 'text/csv' }],
      [`responseId,panel\n,a\n`, 'row 2', { 'content-type': 'text/csv' }],
    ];
    for (const [body, field, headers] of cases) {
      const res = await t.call(org.apiToken, 'POST', base(surveyId), body, headers);
      expect(res.status, field).toBe(400);
      expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
      expect(res.body.meta.error.errorMessage).toContain(field);
    }
    const jobs = await t.database.db
      .selectFrom('jobs')
      .select('id')
      .where('kind', '=', RESPONSE_UPDATE_JOB)
      .where('organization_id', '=', org.brandId)
      .where('payload', 'like', `%${surveyId}%`)
      .execute();
    expect(jobs).toEqual([]);
    const unknown = await t.call(org.apiToken, 'POST', base('SV_nothinghere1234'), {
      updates: [{ responseId: id, embeddedData: {} }],
    });
    expect(unknown.body.meta.error.errorCode).toBe('GSI_2');
  });

  it("never reaches another organisation's response: B's job naming it fails that update", async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const id = await record(surveyId, { QID1: 10, panel: 'a' });
    const b = await t.newOrganization();
    const bSurvey = await importSmallSurvey(t, b.apiToken);
    const started = await t.call(b.apiToken, 'POST', base(bSurvey), {
      updates: [{ responseId: id, embeddedData: { panel: 'B' } }],
    });
    expect(started.status).toBe(200);
    runWorker();
    const done = await pollUntil('B update ends', async () => {
      const res = await t.call(b.apiToken, 'GET', `${base(bSurvey)}/${started.body.result.progressId}`);
      return res.body.result?.status === 'inProgress' ? undefined : res;
    });
    expect(done.body.result.result).toMatchObject({ updated: 0, failed: 1 });
    expect(await valuesOf(surveyId, id)).toMatchObject({ panel: 'a' });
  });

  it('answers 404 FW_RSP_3 for an unknown progress id and for one of another survey', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const other = await importSmallSurvey(t, org.apiToken);
    const id = await record(surveyId, { QID1: 10 });
    const started = await t.call(org.apiToken, 'POST', base(surveyId), {
      updates: [{ responseId: id, embeddedData: { a: '1' } }],
    });
    for (const url of [
      `${base(surveyId)}/PGRS_nothinghere1234`,
      `${base(other)}/${started.body.result.progressId}`,
    ]) {
      const res = await t.call(org.apiToken, 'GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body.meta.error.errorCode).toBe('FW_RSP_3');
    }
  });
});

describe('a bulk update of 10,000 responses', () => {
  it('runs as a job whose percentComplete is always the share of updates committed', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const ids = await insertResponses(
      t.database.db,
      { organizationId: org.brandId, surveyId },
      10_000,
      'bulkA',
    );
    const done = () =>
      t.database.db
        .selectFrom('responses')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('survey_id', '=', surveyId)
        .where('embedded_data', 'like', '%"bulk":"done"%')
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    const started = await t.call(org.apiToken, 'POST', base(surveyId), {
      updates: ids.map((responseId) => ({ responseId, embeddedData: { bulk: 'done' } })),
    });
    expect(started.status).toBe(200);
    runWorker();
    const seen: number[] = [];
    const last = await pollUntil('the bulk update ends', async () => {
      const before = await done();
      const res = await t.call(org.apiToken, 'GET', `${base(surveyId)}/${started.body.result.progressId}`);
      const after = await done();
      const { percentComplete, status } = res.body.result;
      seen.push(percentComplete);
      if (status !== 'inProgress') return res;
      // Honest: what it reports was committed when read, and nothing committed after is claimed.
      expect(percentComplete).toBeGreaterThanOrEqual(Math.min(99, Math.floor(before / 100)));
      expect(percentComplete).toBeLessThanOrEqual(Math.floor(after / 100));
      return undefined;
    });
    expect(last.body.result).toMatchObject({
      status: 'complete',
      percentComplete: 100,
      result: { total: 10_000, updated: 10_000, failed: 0 },
    });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(await done()).toBe(10_000);
    expect(await valuesOf(surveyId, ids[9_999] as string)).toMatchObject({ bulk: 'done', panel: 'a' });
  });

  it('checkpoints each batch in the transaction that wrote it, and resumes after the last one', async () => {
    const surveyId = await importSmallSurvey(t, org.apiToken);
    const ids = await insertResponses(t.database.db, { organizationId: org.brandId, surveyId }, 50, 'bulkB');
    const file = `${org.brandId}/uploads/PGRS_resumetest12345.json`;
    await t.app.blobs.save(file, [
      Buffer.from(JSON.stringify(ids.map((responseId) => ({ responseId, embeddedData: { wave: '2' } })))),
    ]);
    const payload: UpdatePayload = { surveyId, file, ignoreMissingResponses: false };
    const deps = { db: t.database.db, clock: t.clock, config: testConfig(), blobs: t.app.blobs };
    const handler = responseUpdateJob(deps, { batchUpdates: 20 });
    const checkpoints: [number, number, number][] = [];
    const context = (stopAfter: number): JobContext => ({
      signal: new AbortController().signal,
      now: () => t.clock.now(),
      checkpoint: async (db, percent, result) => {
        const progress = result as UpdateProgress;
        const written = await db
          .selectFrom('responses')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('survey_id', '=', surveyId)
          .where('embedded_data', 'like', '%"wave":"2"%')
          .executeTakeFirstOrThrow();
        checkpoints.push([percent, progress.done, Number(written.n)]);
        if (checkpoints.length === stopAfter) throw new Error('the worker died');
      },
    });
    const job = (result: UpdateProgress) => ({
      id: 'PGRS_resumetest12345',
      organizationId: org.brandId,
      kind: RESPONSE_UPDATE_JOB,
      payload,
      result,
      attempts: 1,
    });
    const initial = { done: 0, total: 50, updated: 0, skipped: 0, failed: 0, errors: [] };
    await expect(handler.run(job(initial), context(2))).rejects.toThrow('the worker died');
    // The second batch rolled back with its checkpoint: a new attempt starts from the first one's.
    const firstBatch = { ...initial, done: 20, updated: 20 };
    const result = (await handler.run(job(firstBatch), context(0))) as UpdateProgress;
    expect(checkpoints).toEqual([
      [40, 20, 20],
      [80, 40, 40],
      [80, 40, 40],
      [99, 50, 50],
    ]);
    expect(result).toMatchObject({ done: 50, updated: 50, failed: 0 });
  });
});
