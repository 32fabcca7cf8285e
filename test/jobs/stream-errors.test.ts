import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import { blobDirectory } from '../../src/files/create-blob-store.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { openCliStorage } from '../events/cli-storage.js';
import { waitForExport } from '../exports/exports-helpers.js';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { responseRow } from '../helpers/factories.js';
import { serveFromSources } from '../helpers/serve-args.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { unzip } from '../helpers/zip.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * Issue 19, defect 12: a worker process that could not open an export's destination (a path on another
 * node's disk) died on an unhandled 'error' event, and the export stayed `inProgress` for ever. Here the
 * API runs in the test over the storage of a real `fieldwork serve --role worker` process; the blob
 * directory they share is replaced by a file, so the worker cannot store the export. The job must fail
 * saying why, and the worker process must live on and run the next export.
 */
let t: TestApp;
let org: BootstrapResult;
let worker: StartedServer | undefined;
let cleanup: () => Promise<void>;
let apiDir: string;
let surveyId: string;

beforeAll(async () => {
  const storage = await freshStorageEnv();
  cleanup = storage.cleanup;
  const database = openCliStorage(storage.env);
  await migrateToLatest(database.db);
  // The worker's data directory: the API reads the exports the worker stores in its blob directory.
  apiDir = storage.env.FIELDWORK_DATA_DIR as string;
  t = await buildTestApp({ database, config: { dataDir: apiDir } });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
    values: { QID3_TEXT: 'kept' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await insertResponses(RESPONSES);
  // Queued before the worker exists, so that it finds the directory already gone.
  const queued = await startExport();
  rmSync(blobDirectory(apiDir), { recursive: true, force: true });
  writeFileSync(blobDirectory(apiDir), 'not a directory');
  worker = await startCli(process.execPath, serveFromSources('worker', '--log-level', 'warn'), storage.env);
  pending = queued;
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await t?.close();
  await cleanup?.();
});

let pending: string;
/** More than one read batch (500 rows): the writer waits for the database when the destination fails. */
const RESPONSES = 1500;

async function insertResponses(count: number): Promise<void> {
  for (let first = 0; first < count; first += 100) {
    const rows = Array.from({ length: Math.min(100, count - first) }, (_, i) =>
      responseRow(
        {
          id: `R_streamErr${String(first + i).padStart(6, '0')}`,
          organizationId: org.brandId,
          surveyId,
          seq: 1000 + first + i,
          at: '2026-03-01T00:00:00Z',
        },
        { QID3_TEXT: `answer ${first + i}` },
      ),
    );
    await t.database.db.insertInto('responses').values(rows).execute();
  }
}
const progressUrl = (id: string) => `/API/v3/surveys/${surveyId}/export-responses/${id}`;

/** Polls the export until it is no longer in progress, or the worker process has died; answers its status. */
async function settledOrWorkerGone(id: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.call(org.apiToken, 'GET', progressUrl(id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const status = res.body.result.status as string;
    if (status !== 'inProgress' || worker?.child.exitCode !== null || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startExport(): Promise<string> {
  const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/export-responses`, {
    format: 'csv',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.progressId as string;
}

describe('an export whose file the worker cannot create', () => {
  it('fails with the reason, and the worker process lives on', { timeout: 120_000 }, async () => {
    const status = await settledOrWorkerGone(pending, 90_000);
    expect(worker?.child.exitCode, worker?.output()).toBeNull();
    expect(status).toBe('failed');

    const file = await t.call(org.apiToken, 'GET', `${progressUrl(pending)}/file`);
    expect(file.status).toBe(409);
    expect(file.body.meta.error.errorCode).toBe('FW_EXP_2');
    expect(file.body.meta.error.errorMessage).toContain('The export file could not be created (ENOTDIR)');
    // The reason names no server path: it is for the caller, the path is in the worker's log.
    expect(file.body.meta.error.errorMessage).not.toContain(apiDir);

    expect(worker?.child.exitCode).toBeNull();
    expect((await fetch(`${worker?.url}/health`)).status).toBe(200);
    expect(worker?.output()).not.toContain("Unhandled 'error' event");
  });

  it('the same worker runs the next export once the directory is back', { timeout: 120_000 }, async () => {
    rmSync(blobDirectory(apiDir));
    mkdirSync(blobDirectory(apiDir));
    const id = await startExport();
    const { last } = await waitForExport(t, org.apiToken, progressUrl(id), 90_000);
    expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
    const file = await t.app.inject({
      method: 'GET',
      url: `${progressUrl(id)}/file`,
      headers: { 'x-api-token': org.apiToken },
    });
    expect(file.statusCode).toBe(200);
    const [csv] = [...(await unzip(file.rawPayload)).values()];
    const text = csv?.toString('utf8') ?? '';
    expect(text).toContain('kept');
    expect(text).toContain(`answer ${RESPONSES - 1}`);
  });
});
