import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/clock.js';
import type { Db } from '../../src/db/database.js';
import {
  JobFailure,
  type JobHandler,
  JobRegistry,
  JobWorker,
  type RunningJob,
} from '../../src/jobs/job-runner.js';
import { enqueueJob, getJob } from '../../src/jobs/jobs.service.js';
import { databaseWithOrganization } from '../helpers/test-app.js';

let database: Db;
let close: () => Promise<void>;
let scope: { organizationId: string };
const clock = manualClock('2026-03-01T00:00:00Z');
let seq = 0;

beforeAll(async () => {
  let brandId: string;
  ({ database, brandId, close } = await databaseWithOrganization());
  scope = { organizationId: brandId };
});
afterAll(() => close());

/** A registry with one handler under a kind unique to the test, and a worker on it. */
function workerFor(handler: JobHandler, options: { leaseMs?: number; maxAttempts?: number } = {}) {
  const kind = `test${++seq}`;
  const registry = new JobRegistry();
  registry.register(kind, handler);
  const worker = new JobWorker({ db: database.db, clock, registry, pollMs: 20, ...options });
  return { kind, worker, registry };
}

async function enqueue(kind: string, payload: unknown = {}, initialResult?: unknown): Promise<string> {
  const id = `JOB_${kind}_${++seq}`;
  await enqueueJob(database.db, scope, { id, kind, payload, initialResult }, clock.now());
  return id;
}

const view = (kind: string, id: string) => getJob<Record<string, unknown>>(database.db, scope, kind, id);

describe('the job runner', () => {
  it('runs a job with the handler of its kind and stores its result', async () => {
    const seen: RunningJob[] = [];
    const { kind, worker } = workerFor({
      run: async (job) => {
        seen.push(job);
        return { doubled: (job.payload as { n: number }).n * 2 };
      },
    });
    const id = await enqueue(kind, { n: 21 });
    expect((await view(kind, id))?.status).toBe('inProgress');
    expect(await worker.runOnce()).toBe(1);
    expect(seen[0]).toMatchObject({
      id,
      kind,
      organizationId: scope.organizationId,
      payload: { n: 21 },
      attempts: 1,
    });
    expect(await view(kind, id)).toMatchObject({
      status: 'complete',
      percentComplete: 100,
      result: { doubled: 42 },
    });
    expect(await worker.runOnce()).toBe(0);
  });

  it('shows progress from checkpoints while the job runs', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let checkpointed: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      checkpointed = resolve;
    });
    const { kind, worker } = workerFor({
      run: async (_job, context) => {
        await context.checkpoint(database.db, 40, { step: 1 });
        checkpointed();
        await gate;
        return { step: 2 };
      },
    });
    const id = await enqueue(kind, {}, { step: 0 });
    expect((await view(kind, id))?.result).toEqual({ step: 0 });
    const running = worker.runOnce();
    await reached;
    expect(await view(kind, id)).toMatchObject({
      status: 'inProgress',
      percentComplete: 40,
      result: { step: 1 },
    });
    release();
    await running;
    expect(await view(kind, id)).toMatchObject({ status: 'complete', result: { step: 2 } });
  });

  it('ends a job as failed with the message of a JobFailure, and tells the handler it finished', async () => {
    const finished: string[] = [];
    const { kind, worker } = workerFor({
      run: async () => {
        throw new JobFailure('The input is unusable.');
      },
      finished: async (job) => {
        finished.push(job.id);
      },
    });
    const id = await enqueue(kind);
    await worker.runOnce();
    expect(await view(kind, id)).toMatchObject({ status: 'failed', errorMessage: 'The input is unusable.' });
    expect(finished).toEqual([id]);
  });

  it('retries an unexpected error later, then fails the job after the last attempt', async () => {
    let calls = 0;
    const { kind, worker } = workerFor(
      {
        run: async () => {
          calls++;
          throw new Error('database hiccup');
        },
      },
      { maxAttempts: 2 },
    );
    const id = await enqueue(kind);
    await worker.runOnce();
    expect(calls).toBe(1);
    expect((await view(kind, id))?.status).toBe('inProgress');
    expect(await worker.runOnce()).toBe(0); // not due yet: backing off
    clock.advance(2_001);
    await worker.runOnce();
    expect(calls).toBe(2);
    const failed = await view(kind, id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed?.errorMessage).toContain('unexpectedly');
    expect(failed?.errorMessage).not.toContain('hiccup');
  });

  it('fails a job whose kind has no handler', async () => {
    const { worker } = workerFor({ run: async () => ({}) });
    const id = await enqueue('no-such-kind');
    await worker.runOnce();
    expect(await view('no-such-kind', id)).toMatchObject({ status: 'failed' });
  });

  it('lets another worker resume from the last checkpoint when a lease runs out; the first loses its lease', async () => {
    let firstMayGoOn: () => void = () => {};
    const firstWaits = new Promise<void>((resolve) => {
      firstMayGoOn = resolve;
    });
    let stepped: () => void = () => {};
    const firstStepped = new Promise<void>((resolve) => {
      stepped = resolve;
    });
    const resumedFrom: unknown[] = [];
    const handler: JobHandler = {
      run: async (job, context) => {
        resumedFrom.push(job.result);
        const done = (job.result as { done: number }).done;
        if (resumedFrom.length === 1) {
          await context.checkpoint(database.db, 50, { done: done + 1 });
          stepped();
          await firstWaits; // this worker "hangs" past its lease
          await context.checkpoint(database.db, 75, { done: 99 });
          return { done: 99 };
        }
        await context.checkpoint(database.db, 90, { done: done + 1 });
        return { done: done + 1 };
      },
    };
    const kind = `test${++seq}`;
    const registry = new JobRegistry();
    registry.register(kind, handler);
    const first = new JobWorker({ db: database.db, clock, registry, leaseMs: 1_000 });
    const second = new JobWorker({ db: database.db, clock, registry, leaseMs: 1_000 });
    const id = await enqueue(kind, {}, { done: 0 });
    const firstRun = first.runOnce();
    await firstStepped;
    clock.advance(1_001);
    expect(await second.runOnce()).toBe(1);
    expect(resumedFrom).toEqual([{ done: 0 }, { done: 1 }]);
    firstMayGoOn();
    await firstRun;
    expect(await view(kind, id)).toMatchObject({ status: 'complete', result: { done: 2 } });
  });

  it('gives a job back when the worker stops mid-run, to be resumed', async () => {
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    let runs = 0;
    const { kind, worker } = workerFor({
      run: async (_job, context) => {
        runs++;
        if (runs === 1) {
          started();
          await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        }
        await context.checkpoint(database.db, 10, { runs });
        return { runs };
      },
    });
    const id = await enqueue(kind);
    worker.start();
    await running;
    await worker.stop();
    const row = await database.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'pending', lease_owner: null, lease_until: null });
    worker.start();
    for (let i = 0; i < 200 && (await view(kind, id))?.status === 'inProgress'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await worker.stop();
    expect(await view(kind, id)).toMatchObject({ status: 'complete', result: { runs: 2 } });
  });

  it('never runs one job twice when several workers claim at once', async () => {
    const ran: string[] = [];
    const handler: JobHandler = {
      run: async (job) => {
        ran.push(job.id);
        return {};
      },
    };
    const kind = `test${++seq}`;
    const registry = new JobRegistry();
    registry.register(kind, handler);
    const ids = await Promise.all(Array.from({ length: 20 }, () => enqueue(kind)));
    const workers = Array.from({ length: 4 }, () => new JobWorker({ db: database.db, clock, registry }));
    const drain = async (worker: JobWorker) => {
      for (let i = 0; i < 50 && (await worker.runOnce()) > 0; i++);
    };
    await Promise.all(workers.map(drain));
    expect(ran.sort()).toEqual([...ids].sort());
  });

  it('refuses to register one kind twice', () => {
    const registry = new JobRegistry();
    registry.register('x', { run: async () => ({}) });
    expect(() => registry.register('x', { run: async () => ({}) })).toThrow(/twice/);
  });
});
