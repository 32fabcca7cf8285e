import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { downloadFile, exportCsv, exportsBase, startExport } from './export-runs.js';
import { startExportWorker } from './exports-helpers.js';

let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let org: BootstrapResult;
let worker: JobWorker;
let surveyId: string;
let otherSurveyId: string;

/** Records `count` responses to the survey a minute apart; answers their ids in recorded order. */
async function record(count: number, survey = surveyId, token = org.apiToken): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const values = { QID3_TEXT: `answer ${i}` };
    const res = await t.call(token, 'POST', `/API/v3/surveys/${survey}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.result.responseId);
    clock.advance(60_000);
  }
  return ids;
}

const run = (options: Record<string, unknown>, spelling: 'current' | 'legacy' = 'current') =>
  exportCsv(t, org.apiToken, surveyId, options, spelling);

const tokenOf = (result: { status: { body: { result: { continuationToken?: string } } } }) => {
  const token = result.status.body.result.continuationToken;
  expect(token, 'continuationToken').toEqual(expect.any(String));
  return token as string;
};

beforeAll(async () => {
  clock = manualClock('2026-05-01T08:00:00Z');
  t = await buildTestApp({ clock });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  otherSurveyId = await importSmallSurvey(t, org.apiToken);
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

describe('incremental export', () => {
  it('export → token → 3 new responses → exactly those 3 → token → nothing new → headers only', async () => {
    const before = await record(2);
    const first = await run({ allowContinuation: true });
    expect(first.responseIds).toEqual(before);
    const token1 = tokenOf(first);

    const added = await record(3);
    const second = await run({ continuationToken: token1 });
    expect(second.responseIds).toEqual(added);
    const token2 = tokenOf(second);
    expect(token2).not.toBe(token1);

    const third = await run({ continuationToken: token2 });
    expect(third.names).toContain('ResponseId');
    expect(third.importIds.length).toBe(third.names.length);
    expect(third.data).toEqual([]);
    const token3 = tokenOf(third);

    // Nothing is missed or doubled later either, and an old token still starts where it did.
    const later = await record(1);
    expect((await run({ continuationToken: token3 })).responseIds).toEqual(later);
    expect((await run({ continuationToken: token1 })).responseIds).toEqual([...added, ...later]);
  });

  it('both spellings start from a token and both progress answers carry it', async () => {
    const first = await run({ allowContinuation: true }, 'legacy');
    const token = tokenOf(first);
    const id = first.fileId;
    const current = await t.call(org.apiToken, 'GET', `/API/v3/surveys/${surveyId}/export-responses/${id}`);
    expect(current.body.result.continuationToken).toBe(token);
    const added = await record(2);
    const next = await run({ continuationToken: token }, 'legacy');
    expect(next.responseIds).toEqual(added);
    expect(tokenOf(next)).toEqual(expect.any(String));
  });

  it('with limit, each export continues where the last one stopped', async () => {
    const all = (await run({})).responseIds;
    const page1 = await run({ allowContinuation: true, limit: 3 });
    expect(page1.responseIds).toEqual(all.slice(0, 3));
    const page2 = await run({ continuationToken: tokenOf(page1), limit: 3 });
    expect(page2.responseIds).toEqual(all.slice(3, 6));
    const rest = await run({ continuationToken: tokenOf(page2) });
    expect(rest.responseIds).toEqual(all.slice(6));
  });

  it('a response recorded while an export runs comes in the next export, not lost or doubled', async () => {
    const before = (await run({})).responseIds;
    let during: string[] = [];
    // The export's first checkpoint comes after it counted its responses: record one right then.
    const inner = responseExportJob({ db: t.database.db, clock, config: testConfig() });
    const registry = new JobRegistry();
    registry.register(RESPONSE_EXPORT_JOB, {
      run: (job, context) =>
        inner.run(job, {
          ...context,
          checkpoint: async (db, percent, result) => {
            if (during.length === 0) during = await record(1);
            return context.checkpoint(db, percent, result);
          },
        }),
    });
    await worker.stop();
    let id: string;
    try {
      const body = { format: 'csv', compress: false, allowContinuation: true };
      const started = await startExport(t, org.apiToken, surveyId, body);
      expect(started.status).toBe(200);
      id = started.body.result.progressId;
      expect(await new JobWorker({ db: t.database.db, clock, registry }).runOnce()).toBe(1);
    } finally {
      worker.start();
    }
    expect(during).toHaveLength(1);
    const status = await t.call(org.apiToken, 'GET', `${exportsBase(surveyId)}/${id}`);
    expect(status.body.result.status).toBe('complete');
    const file = await downloadFile(t, org.apiToken, `${exportsBase(surveyId)}/${id}/file`);
    const written = (parse(file.bytes.toString('utf8')) as string[][]).slice(3).map((row) => row[8]);
    expect(written).toEqual(before);
    const next = await run({ continuationToken: status.body.result.continuationToken });
    expect(next.responseIds).toEqual(during);
  });

  it('an export that did not ask for continuation offers no token', async () => {
    const plain = await run({});
    expect(plain.status.body.result.continuationToken).toBeUndefined();
    const declined = await run({
      continuationToken: tokenOf(await run({ allowContinuation: true })),
      allowContinuation: false,
    });
    expect(declined.status.body.result.continuationToken).toBeUndefined();
  });
});

describe('a continuation token is bound to its survey and organisation', () => {
  let token: string;
  beforeAll(async () => {
    token = tokenOf(await run({ allowContinuation: true }));
  });

  const refuse = async (survey: string, body: Record<string, unknown>, apiToken = org.apiToken) => {
    const res = await startExport(t, apiToken, survey, { format: 'csv', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.meta.error.errorCode).toBe('FW_VAL_1');
    return res.body.meta.error.errorMessage as string;
  };

  it('a token of another survey is refused', async () => {
    expect(await refuse(otherSurveyId, { continuationToken: token })).toContain('continuationToken');
  });

  it('a tampered or made-up token is refused', async () => {
    const raw = Buffer.from(token, 'base64url').toString();
    const flipped = raw.slice(0, -1) + (raw.endsWith('a') ? 'b' : 'a');
    for (const bad of [Buffer.from(flipped).toString('base64url'), `${token}x`, 'not-a-token', ''])
      expect(await refuse(surveyId, { continuationToken: bad })).toContain('continuationToken');
  });

  it('a token of organisation A cannot continue an export in organisation B', async () => {
    const other = await t.newOrganization();
    const theirSurvey = await importSmallSurvey(t, other.apiToken);
    await record(1, theirSurvey, other.apiToken);
    expect(await refuse(theirSurvey, { continuationToken: token }, other.apiToken)).toContain(
      'continuationToken',
    );
  });

  it('a token of an export still running is refused', async () => {
    await worker.stop();
    try {
      const started = await startExport(t, org.apiToken, surveyId, {
        format: 'csv',
        allowContinuation: true,
      });
      expect(started.status).toBe(200);
      const pending = await t.call(
        org.apiToken,
        'GET',
        `/API/v3/surveys/${surveyId}/export-responses/${started.body.result.progressId}`,
      );
      expect(pending.body.result.status).toBe('inProgress');
      expect(pending.body.result.continuationToken).toBeUndefined();
    } finally {
      worker.start();
    }
  });

  it.each([
    [{ continuationToken: 'x', startDate: '2026-05-01T00:00:00Z' }, 'continuationToken'],
    [{ continuationToken: 'x', endDate: '2026-05-01T00:00:00Z' }, 'continuationToken'],
    [{ allowContinuation: true, endDate: '2026-05-01T00:00:00Z' }, 'allowContinuation'],
    [{ allowContinuation: true, exportResponsesInProgress: true }, 'exportResponsesInProgress'],
    [{ continuationToken: 'x', exportResponsesInProgress: true }, 'exportResponsesInProgress'],
    [{ allowContinuation: true, responseIds: ['R_1'] }, 'responseIds'],
  ])('%j is a 400 naming %s', async (body, field) => {
    expect(await refuse(surveyId, body)).toContain(field);
  });
});
