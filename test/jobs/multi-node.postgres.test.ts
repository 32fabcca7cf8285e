import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { type Db, migrateToLatest } from '../../src/db/database.js';
import { createBlobStore } from '../../src/files/create-blob-store.js';
import type { JobContext, RunningJob } from '../../src/jobs/job-runner.js';
import { type ExportPayload, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { openCliStorage } from '../events/cli-storage.js';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { responseRow } from '../helpers/factories.js';
import { serveFromSources } from '../helpers/serve-args.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';

/**
 * Issue 18 items 4-6 acceptance, on PostgreSQL with real processes: one `--role api` and two
 * `--role worker` nodes, each with its own data directory, sharing nothing but the database (`--blob-store
 * database`), with the job lease shortened to LEASE_MS (FIELDWORK_JOB_LEASE_MS). The test process only
 * writes the fixture rows and asks the API process over HTTP.
 */
const LEASE_MS = 1_000;
const MAX_ATTEMPTS = 3;
/** Enough rows that a kill lands mid-export (written with a checkpoint every 250 rows). */
const RESPONSES = 30_000;

let storage: { env: Record<string, string>; cleanup(): Promise<void> };
let database: Db;
let t: TestApp;
let org: BootstrapResult;
let surveyId: string;
let api: StartedServer;
const workers = new Set<StartedServer>();
const dataDirs: string[] = [];
const nodeEnv = () => ({
  ...storage.env,
  FIELDWORK_SECRET_KEY: SECRET_KEY,
  FIELDWORK_JOB_LEASE_MS: String(LEASE_MS),
  FIELDWORK_JOB_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
});
const SECRET_KEY = randomBytes(32).toString('hex');

/** A `fieldwork serve` process of `role` with a data directory of its own. */
async function startNode(role: 'api' | 'worker'): Promise<StartedServer> {
  const data = mkdtempSync(join(tmpdir(), `fieldwork-${role}-`));
  dataDirs.push(data);
  const args = serveFromSources(role, '--data', data, '--blob-store', 'database', '--log-level', 'warn');
  const node = await startCli(process.execPath, args, nodeEnv());
  if (role === 'worker') workers.add(node);
  return node;
}

beforeAll(async () => {
  storage = await freshStorageEnv();
  database = openCliStorage(storage.env);
  await migrateToLatest(database.db);
  t = await buildTestApp({ database, config: { blobStore: 'database' } });
  org = await t.newOrganization();
  surveyId = await importSmallSurvey(t, org.apiToken);
  await insertResponses();
  [api] = await Promise.all([startNode('api'), startNode('worker'), startNode('worker')]);
}, 180_000);
afterAll(async () => {
  await Promise.all([api?.stop(), ...[...workers].map((node) => node.stop())]);
  await t?.close();
  await storage?.cleanup();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function insertResponses(): Promise<void> {
  for (let first = 0; first < RESPONSES; first += 1000) {
    const rows = Array.from({ length: 1000 }, (_, i) =>
      responseRow(
        {
          id: `R_multiNode${String(first + i).padStart(7, '0')}`,
          organizationId: org.brandId,
          surveyId,
          seq: 1 + first + i,
          at: '2026-03-01T00:00:00Z',
        },
        { QID3_TEXT: `answer ${first + i} ${'x'.repeat((first + i) % 40)}` },
      ),
    );
    await database.db.insertInto('responses').values(rows).execute();
  }
}

/** Asks the API process (never the in-test app) to export. */
async function startExport(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${api.url}/API/v3/surveys/${surveyId}/export-responses`, {
    method: 'POST',
    headers: { 'x-api-token': org.apiToken, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { result: { progressId: string } };
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json.result.progressId;
}

const jobRow = (id: string) =>
  database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** Polls the job row until `done` holds (bounded); answers the row. */
async function waitForJob(
  id: string,
  done: (row: Awaited<ReturnType<typeof jobRow>>) => boolean,
  ms = 50_000,
) {
  const deadline = Date.now() + ms;
  for (;;) {
    const row = await jobRow(id);
    if (done(row) || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function downloadFromApi(id: string): Promise<Buffer> {
  const res = await fetch(`${api.url}/API/v3/surveys/${surveyId}/export-responses/${id}/file`, {
    headers: { 'x-api-token': org.apiToken },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** The same export run here, by the job handler called directly, into a key of its own. */
async function exportInProcess(id: string): Promise<Buffer> {
  const row = await jobRow(id);
  const blobs = createBlobStore(testConfig({ blobStore: 'database' }), database.db, systemClock);
  const payload = {
    ...JSON.parse(row.payload),
    file: `${org.brandId}/exports/inprocess-${id}`,
  } as ExportPayload;
  const job: RunningJob = {
    id,
    organizationId: org.brandId,
    kind: row.kind,
    payload,
    result: null,
    attempts: 1,
  };
  const context: JobContext = {
    signal: new AbortController().signal,
    now: () => systemClock.now(),
    checkpoint: async () => {},
  };
  await responseExportJob({ db: database.db, clock: systemClock, config: testConfig(), blobs }).run(
    job,
    context,
  );
  return buffer(await blobs.open(payload.file));
}

/** A .sav header records when it was written (offset 92: 9 bytes of date, 8 of time); the rest must match. */
const withoutCreationTime = (sav: Buffer) => Buffer.concat([sav.subarray(0, 92), sav.subarray(109)]);

describe('jobs across nodes (PostgreSQL, real processes)', () => {
  it('an SPSS export outlasting its lease runs once; its file downloads from the API node', {
    timeout: 90_000,
  }, async () => {
    // The pre-pass reads `responses`: held locked, it lasts as long as one over a survey of millions
    // (issue 18: a pre-pass outlived its lease and a second worker claimed the export).
    const { id, leases } = await database.db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE responses IN ACCESS EXCLUSIVE MODE`.execute(trx);
      const exportId = await startExport({ format: 'spss', compress: false });
      const claimed = await waitForJob(exportId, (r) => r.lease_until !== null);
      await new Promise((resolve) => setTimeout(resolve, 4 * LEASE_MS));
      const held = await jobRow(exportId);
      return { id: exportId, leases: [claimed.lease_until ?? '', held.lease_until ?? ''] };
    });
    // The heartbeat renewed the lease while the pre-pass waited: no checkpoint ran meanwhile.
    expect(new Date(leases[1] ?? '').getTime()).toBeGreaterThan(
      new Date(leases[0] ?? '').getTime() + 2 * LEASE_MS,
    );
    const row = await waitForJob(id, (r) => r.status !== 'pending');
    expect(row.status, row.error ?? '').toBe('complete');
    // It ran for several leases, yet no other worker ever claimed it: one attempt.
    const ranMs = new Date(row.finished_at ?? 0).getTime() - new Date(row.created_at).getTime();
    expect(ranMs).toBeGreaterThan(2 * LEASE_MS);
    expect(row.attempts).toBe(1);
    const downloaded = await downloadFromApi(id);
    expect(downloaded.subarray(0, 4).toString('latin1')).toBe('$FL2');
    expect(withoutCreationTime(downloaded).equals(withoutCreationTime(await exportInProcess(id)))).toBe(true);
  });

  it('a worker killed mid-export leaves a job another worker finishes, the file identical', {
    timeout: 90_000,
  }, async () => {
    // One worker alone takes the export; it is killed once it has written rows.
    const [first, second] = [...workers];
    await second?.stop();
    if (second) workers.delete(second);
    const id = await startExport({ format: 'csv', compress: false });
    const started = await waitForJob(id, (r) => r.percent_complete > 0 || r.status !== 'pending');
    expect(started).toMatchObject({ status: 'pending', attempts: 1 });
    process.kill(-(first?.child.pid as number), 'SIGKILL');
    await first?.stop();
    if (first) workers.delete(first);
    expect((await jobRow(id)).status).toBe('pending');

    await startNode('worker');
    const row = await waitForJob(id, (r) => r.status !== 'pending');
    expect(row.status, row.error ?? '').toBe('complete');
    expect(row.attempts).toBe(2);
    const downloaded = await downloadFromApi(id);
    expect(downloaded.toString('utf8')).toContain(`answer ${RESPONSES - 1}`);
    expect(downloaded.equals(await exportInProcess(id))).toBe(true);
    // The killed attempt's temporary blob never became a live blob.
    const liveTemporary = await database.db
      .selectFrom('blobs')
      .select('key')
      .where('key', 'like', `${org.brandId}/tmp/%`)
      .execute();
    expect(liveTemporary).toEqual([]);
  });

  it('a job failing every attempt ends failed with its reason after the maximum', {
    timeout: 60_000,
  }, async () => {
    const id = `ES_alwaysFails${randomBytes(4).toString('hex')}`;
    const now = new Date().toISOString();
    // An export whose format no writer knows: every attempt throws an unexpected TypeError.
    const payload = {
      surveyId,
      format: 'nope',
      file: `${org.brandId}/exports/${id}.bin`,
      compress: false,
      options: {},
    };
    await database.db
      .insertInto('jobs')
      .values({
        id,
        organization_id: org.brandId,
        kind: 'responseExport',
        status: 'pending',
        percent_complete: 0,
        payload: JSON.stringify(payload),
        result: null,
        error: null,
        attempts: 0,
        due_at: now,
        lease_until: null,
        lease_owner: null,
        created_at: now,
        updated_at: now,
        finished_at: null,
      })
      .execute();
    const row = await waitForJob(id, (r) => r.status !== 'pending');
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    const status = await fetch(`${api.url}/API/v3/responseexports/${id}/file`, {
      headers: { 'x-api-token': org.apiToken },
    });
    const body = (await status.json()) as { meta: { error: { errorCode: string; errorMessage: string } } };
    expect(status.status).toBe(409);
    expect(body.meta.error.errorCode).toBe('FW_EXP_2');
    expect(body.meta.error.errorMessage).toContain(`failed unexpectedly after ${MAX_ATTEMPTS} attempts`);
    // The worker that ran every attempt lives on (a failing save once ended its process).
    for (const node of workers) expect(node.child.exitCode, node.output()).toBeNull();
  });
});
