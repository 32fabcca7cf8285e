import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { Deps } from '../../src/deps.js';
import { blobDirectory } from '../../src/files/create-blob-store.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import {
  RESPONSE_EXPORT_EXPIRY_JOB,
  responseExportExpiryJob,
} from '../../src/modules/exports/export-expiry.job.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { downloadFile, exportsBase, startExport } from './export-runs.js';

const HOUR = 3_600_000;
let t: TestApp;
let clock: ReturnType<typeof manualClock>;
let org: BootstrapResult;
let surveyId: string;
/** Not started: each test runs the due jobs itself with runOnce(), so the clock alone decides what is due. */
let worker: JobWorker;

beforeAll(async () => {
  clock = manualClock('2026-06-01T09:00:00Z');
  t = await buildTestApp({ clock, config: { exportRetentionHours: 2 } });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
    values: { QID3_TEXT: 'kept for two hours' },
  });
  expect(res.status).toBe(200);
  const deps: Deps = { db: t.database.db, clock, config: testConfig({ exportRetentionHours: 2 }) };
  const registry = new JobRegistry();
  registry.register(RESPONSE_EXPORT_JOB, responseExportJob(deps));
  registry.register(RESPONSE_EXPORT_EXPIRY_JOB, responseExportExpiryJob(deps));
  worker = new JobWorker({ db: t.database.db, clock, registry });
});
afterAll(async () => {
  await t.close();
});

/** Starts an export and runs it to the end; answers its id and the path of its file. */
async function finishedExport(): Promise<{ id: string; path: string }> {
  const started = await startExport(t, org.apiToken, surveyId, { format: 'csv' });
  expect(started.status).toBe(200);
  const id = started.body.result.progressId as string;
  expect(await worker.runOnce()).toBe(1);
  // The export's file in the BlobStore (the directory backend of an in-memory database).
  return { id, path: join(blobDirectory(':memory:'), org.brandId, 'exports', `${id}.zip`) };
}

const legacyStatus = async (id: string) =>
  (await t.call(org.apiToken, 'GET', `/API/v3/responseexports/${id}`)).body.result;
const currentStatus = async (id: string) =>
  (await t.call(org.apiToken, 'GET', `${exportsBase(surveyId)}/${id}`)).body.result;

describe('export files expire', () => {
  it('the file is kept for the retention, then answers 404 "expired" and is deleted from disk', async () => {
    const exported = await finishedExport();
    expect(await legacyStatus(exported.id)).toMatchObject({
      status: 'complete',
      percentComplete: 100,
      expiresAt: '2026-06-01T11:00:00Z',
      expired: false,
    });
    expect(existsSync(exported.path)).toBe(true);

    clock.advance(2 * HOUR - 1000);
    expect(await worker.runOnce()).toBe(0); // the deletion is not due yet
    expect(existsSync(exported.path)).toBe(true);
    expect((await downloadFile(t, org.apiToken, `/API/v3/responseexports/${exported.id}/file`)).status).toBe(
      200,
    );

    clock.advance(1000);
    // Expired from that moment, before the deletion has even run.
    expect(await currentStatus(exported.id)).toMatchObject({ status: 'complete', expired: true });
    const legacy = await downloadFile(t, org.apiToken, `/API/v3/responseexports/${exported.id}/file`);
    expect(legacy.status).toBe(404);
    expect(legacy.json().meta.error.errorCode).toBe('FW_EXP_1');
    expect(legacy.json().meta.error.errorMessage).toContain('expired; export again');

    expect(await worker.runOnce()).toBe(1);
    expect(existsSync(exported.path)).toBe(false);
    const current = await downloadFile(t, org.apiToken, `${exportsBase(surveyId)}/${exported.id}/file`);
    expect(current.status).toBe(404);
    expect(current.json().meta.error.errorMessage).toContain('expired');
    expect(await legacyStatus(exported.id)).toMatchObject({ status: 'complete', expired: true });
  });

  it('an expiry deletes only the file that expired', async () => {
    const older = await finishedExport();
    clock.advance(HOUR);
    const newer = await finishedExport();
    clock.advance(HOUR);
    expect(await worker.runOnce()).toBe(1);
    expect(existsSync(older.path)).toBe(false);
    expect(existsSync(newer.path)).toBe(true);
    expect(await currentStatus(newer.id)).toMatchObject({ expired: false });
    expect(await worker.runOnce()).toBe(0);
    clock.advance(HOUR);
    expect(await worker.runOnce()).toBe(1);
    expect(existsSync(newer.path)).toBe(false);
  });
});
