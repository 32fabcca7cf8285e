import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import type { BlobStore } from '../../src/files/blob-store.js';
import { createBlobStore } from '../../src/files/create-blob-store.js';
import {
  JobFailure,
  type JobHandler,
  JobRegistry,
  JobWorker,
  LeaseLostError,
} from '../../src/jobs/job-runner.js';
import { enqueueJob, getJob } from '../../src/jobs/jobs.service.js';
import { databaseWithOrganization, testConfig } from '../helpers/test-app.js';

/**
 * Issue 18 item 6, in one process on both engines with the real clock: the lease heartbeat, the lease
 * lost mid-run (the handler's signal fires and only its own temporary blob goes), outputs renamed into
 * place on completion, and the attempt cap applied at claim time. The blobs are in the database backend,
 * the one nodes share.
 */
let database: Db;
let close: () => Promise<void>;
let organizationId: string;
let blobs: BlobStore;
let seq = 0;

beforeAll(async () => {
  let brandId: string;
  ({ database, brandId, close } = await databaseWithOrganization());
  organizationId = brandId;
  blobs = createBlobStore(testConfig({ blobStore: 'database' }), database.db, systemClock);
});
afterAll(() => close());

const LEASE_MS = 300;

function setup(handler: JobHandler, options: { maxAttempts?: number } = {}) {
  const kind = `lease${++seq}`;
  const registry = new JobRegistry();
  registry.register(kind, handler);
  const worker = () =>
    new JobWorker({ db: database.db, clock: systemClock, registry, leaseMs: LEASE_MS, ...options });
  return { kind, worker };
}

async function enqueue(kind: string): Promise<string> {
  const id = `JOB_${kind}_${++seq}`;
  await enqueueJob(database.db, { organizationId }, { id, kind, payload: {} }, systemClock.now());
  return id;
}

const jobRow = (id: string) =>
  database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const text = async (key: string) => (await buffer(await blobs.open(key))).toString('utf8');
const until = async (condition: () => boolean | Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('job leases', () => {
  it('a run four leases long keeps its lease: a second worker never claims it, one attempt', async () => {
    let finish: () => void = () => {};
    let started: () => void = () => {};
    const firstRunning = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { kind, worker } = setup({
      // A second attempt (the defect) ends at once, so the test fails on its count rather than hangs.
      run: (job) =>
        job.attempts > 1
          ? Promise.resolve({})
          : new Promise((resolve) => {
              finish = () => resolve({ ran: true });
              started();
            }),
    });
    const id = await enqueue(kind);
    const first = worker();
    const second = worker();
    const running = first.runOnce();
    // The second worker tries only once the first holds the job: had it claimed first, its own run
    // would wait for a finish that the loop below never reaches.
    await firstRunning;
    const startedAt = Date.now();
    let stolen = 0;
    // Four lease lengths of a second worker trying to claim: without the heartbeat it wins after one.
    while (Date.now() - startedAt < 4 * LEASE_MS) {
      stolen += await second.runOnce();
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS / 6));
    }
    finish();
    expect(await running).toBe(1);
    expect(stolen).toBe(0);
    expect(await jobRow(id)).toMatchObject({ status: 'complete', attempts: 1 });
  });

  it('a lost lease fires the signal; the attempt removes its own temporary blob, not the winner file', async () => {
    const final = `${organizationId}/exports/lost-${++seq}.txt`;
    await blobs.save(final, [Buffer.from('the winner wrote this')]);
    let temporary = '';
    let reason: unknown;
    const { kind, worker } = setup({
      run: async (_job, context) => {
        temporary = context.outputKey?.(blobs, final) ?? '';
        await blobs.save(temporary, [Buffer.from('the loser wrote this')]);
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        reason = context.signal.reason;
        throw reason;
      },
    });
    const id = await enqueue(kind);
    const running = worker().runOnce();
    await until(async () => temporary !== '' && (await blobs.stat(temporary)) !== undefined);
    // Another worker takes the job over (as a claim after an expired lease would).
    await database.db
      .updateTable('jobs')
      .set({ lease_owner: 'another-worker' })
      .where('id', '=', id)
      .execute();
    await running;
    expect(reason).toBeInstanceOf(LeaseLostError);
    expect(temporary.startsWith(`${organizationId}/tmp/${id}-1-`)).toBe(true);
    expect(await blobs.stat(temporary)).toBeUndefined();
    expect(await text(final)).toBe('the winner wrote this');
    expect(await jobRow(id)).toMatchObject({ status: 'pending', lease_owner: 'another-worker' });
    // Claims take any kind: the next tests' workers must not find this one.
    await database.db.deleteFrom('jobs').where('id', '=', id).execute();
  });

  it('a completed attempt renames its temporary blob to the final key', async () => {
    const final = `${organizationId}/exports/done-${++seq}.txt`;
    let temporary = '';
    const { kind, worker } = setup({
      run: async (_job, context) => {
        temporary = context.outputKey?.(blobs, final) ?? '';
        await blobs.save(temporary, [Buffer.from('complete')]);
        expect(await blobs.stat(final)).toBeUndefined(); // not in place before the job completes
        return {};
      },
    });
    const id = await enqueue(kind);
    expect(await worker().runOnce()).toBe(1);
    expect(await text(final)).toBe('complete');
    expect(await blobs.stat(temporary)).toBeUndefined();
    expect((await getJob(database.db, { organizationId }, kind, id))?.status).toBe('complete');
  });

  it('a failed attempt leaves no temporary blob and no final file', async () => {
    const final = `${organizationId}/exports/failed-${++seq}.txt`;
    let temporary = '';
    const { kind, worker } = setup({
      run: async (_job, context) => {
        temporary = context.outputKey?.(blobs, final) ?? '';
        await blobs.save(temporary, [Buffer.from('half')]);
        throw new JobFailure('The input is unusable.');
      },
    });
    const id = await enqueue(kind);
    await worker().runOnce();
    expect(await blobs.stat(temporary)).toBeUndefined();
    expect(await blobs.stat(final)).toBeUndefined();
    expect((await getJob(database.db, { organizationId }, kind, id))?.errorMessage).toBe(
      'The input is unusable.',
    );
  });

  it('a job claimed past its last attempt fails saying so, without running again', async () => {
    let runs = 0;
    const { kind, worker } = setup(
      {
        run: async () => {
          runs++;
          return {};
        },
      },
      { maxAttempts: 3 },
    );
    const id = await enqueue(kind);
    // Three attempts whose workers died (their leases ran out); the second had failed and said why.
    const expired = new Date(Date.now() - 1000).toISOString();
    await database.db
      .updateTable('jobs')
      .set({
        attempts: 3,
        lease_owner: 'dead-worker',
        lease_until: expired,
        error: JSON.stringify({ message: 'secret internals', attempt: 2 }),
      })
      .where('id', '=', id)
      .execute();
    const pendingView = await getJob(database.db, { organizationId }, kind, id);
    expect(pendingView?.errorMessage).toBeNull(); // an attempt's reason is not shown while pending
    expect(await worker().runOnce()).toBe(1);
    expect(runs).toBe(0);
    const view = await getJob(database.db, { organizationId }, kind, id);
    expect(view?.status).toBe('failed');
    expect(view?.errorMessage).toBe(
      "The job gave up after 3 attempts: attempt 3 ended without finishing (its worker stopped or lost the job's lease); attempt 2 had failed unexpectedly (the server log has the details).",
    );
    expect(view?.errorMessage).not.toContain('secret internals');
  });

  it('an attempt failing unexpectedly records its reason on the row and backs off', async () => {
    const { kind, worker } = setup({
      run: async () => {
        throw new Error('database hiccup');
      },
    });
    const id = await enqueue(kind);
    const before = Date.now();
    await worker().runOnce();
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null });
    expect(JSON.parse(row.error ?? '{}')).toEqual({ message: 'database hiccup', attempt: 1 });
    const delay = new Date(row.due_at).getTime() - before;
    expect(delay).toBeGreaterThanOrEqual(1_000);
    expect(delay).toBeLessThanOrEqual(2_000 + (Date.now() - before));
  });
});
