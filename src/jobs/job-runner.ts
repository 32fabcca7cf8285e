import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { fromJson, toJson } from '../db/json.js';
import type { Queryable } from '../deps.js';
import { LoopFailureLog, type Worker } from '../workers.js';
import { jobQueued } from './jobs.service.js';
import { claimJobs, finishJob, type JobRow, releaseJob, updateProgress } from './jobs.store.js';

/** A job as its handler sees it. `result` is the last checkpoint: a handler resumes from it after a crash. */
export interface RunningJob {
  id: string;
  organizationId: string;
  kind: string;
  payload: unknown;
  result: unknown;
  attempts: number;
}

export interface JobContext {
  /** Set when the worker is stopping: a handler checks it between steps and returns by throwing. */
  signal: AbortSignal;
  now(): Date;
  /**
   * Records progress and renews the lease. Pass the transaction that wrote the step's work, so the
   * checkpoint and the work commit together; throws LeaseLostError (rolling that transaction back) when
   * another worker took the job over.
   */
  checkpoint(db: Queryable, percentComplete: number, result: unknown): Promise<void>;
}

export interface JobHandler {
  /** Does the work; what it returns is the job's result. */
  run(job: RunningJob, context: JobContext): Promise<unknown>;
  /** Called once the job ended for good (complete or failed), e.g. to delete its input file. */
  finished?(job: RunningJob): Promise<void>;
}

/**
 * Thrown by a handler to end its job as failed with a message its caller may read. A `cause` (a file
 * path, a system error) is for the server log only.
 */
export class JobFailure extends Error {}
export class LeaseLostError extends Error {}
class StoppedError extends Error {}

/** Job kinds and their handlers; app.ts fills it, since this layer imports no module. */
export class JobRegistry {
  private readonly handlers = new Map<string, JobHandler>();

  register(kind: string, handler: JobHandler): void {
    if (this.handlers.has(kind)) throw new Error(`job kind ${kind} is registered twice`);
    this.handlers.set(kind, handler);
  }

  get(kind: string): JobHandler | undefined {
    return this.handlers.get(kind);
  }
}

export interface JobWorkerOptions {
  db: Queryable;
  clock: Clock;
  registry: JobRegistry;
  pollMs?: number;
  leaseMs?: number;
  maxAttempts?: number;
  log?: (message: string, error?: unknown) => void;
}

/** Claims due jobs with the one lease-based claim and runs each with the handler of its kind. */
export class JobWorker implements Worker {
  readonly name = 'jobs';
  private readonly owner = `jobs-${randomUUID()}`;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private controller = new AbortController();
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly onQueued = () => this.wake?.();
  private readonly loopFailures = new LoopFailureLog((error) =>
    this.options.log?.('job worker: claiming failed', error),
  );

  constructor(private readonly options: JobWorkerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 3;
  }

  start(): void {
    if (this.loop) return;
    this.controller = new AbortController();
    jobQueued.on('queued', this.onQueued);
    this.loop = this.runLoop();
  }

  async stop(): Promise<void> {
    jobQueued.off('queued', this.onQueued);
    this.controller.abort();
    this.wake?.();
    await this.loop;
    this.loop = undefined;
  }

  /** Claims and runs the jobs due now, one at a time; answers how many ran. */
  async runOnce(): Promise<number> {
    const rows = await claimJobs(this.options.db, {
      owner: this.owner,
      now: this.options.clock.now(),
      leaseMs: this.leaseMs,
      limit: 1,
    });
    for (const row of rows) await this.runJob(row);
    return rows.length;
  }

  private async runLoop(): Promise<void> {
    const { signal } = this.controller;
    while (!signal.aborted) {
      let ran = 0;
      try {
        ran = await this.runOnce();
        this.loopFailures.succeeded();
      } catch (error) {
        // The database may be away (restart, failover): the loop keeps polling until it is back.
        this.loopFailures.failed(error);
      }
      if (ran === 0 && !signal.aborted) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async runJob(row: JobRow): Promise<void> {
    const job: RunningJob = {
      id: row.id,
      organizationId: row.organization_id,
      kind: row.kind,
      payload: fromJson(row.payload),
      result: row.result === null ? null : fromJson(row.result),
      attempts: row.attempts,
    };
    const handler = this.options.registry.get(row.kind);
    if (!handler) return this.fail(job, undefined, `No handler for job kind ${row.kind}.`);
    try {
      const result = await handler.run(job, this.context(job.id));
      await finishJob(this.options.db, job.id, this.owner, {
        status: 'complete',
        percent_complete: 100,
        result: toJson(result),
        error: null,
        at: this.options.clock.now().toISOString(),
      });
      await handler.finished?.(job);
    } catch (error) {
      await this.handleError(job, handler, error);
    }
  }

  private async handleError(job: RunningJob, handler: JobHandler, error: unknown): Promise<void> {
    const now = this.options.clock.now();
    if (error instanceof LeaseLostError) return; // another worker owns it now
    if (error instanceof StoppedError || this.controller.signal.aborted) {
      return releaseJob(this.options.db, job.id, this.owner, now.toISOString());
    }
    if (error instanceof JobFailure) {
      if (error.cause)
        this.options.log?.(`job ${job.id} (${job.kind}) failed: ${error.message}`, error.cause);
      return this.fail(job, handler, error.message);
    }
    this.options.log?.(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed`, error);
    if (job.attempts < this.maxAttempts) {
      const retryAt = new Date(now.getTime() + 1000 * 2 ** job.attempts).toISOString();
      return releaseJob(this.options.db, job.id, this.owner, retryAt);
    }
    return this.fail(job, handler, 'The job failed unexpectedly; the server log has the details.');
  }

  private async fail(job: RunningJob, handler: JobHandler | undefined, message: string): Promise<void> {
    await finishJob(this.options.db, job.id, this.owner, {
      status: 'failed',
      error: toJson({ message }),
      at: this.options.clock.now().toISOString(),
    });
    await handler?.finished?.(job);
  }

  private context(jobId: string): JobContext {
    const { signal } = this.controller;
    return {
      signal,
      now: () => this.options.clock.now(),
      checkpoint: async (db, percentComplete, result) => {
        if (signal.aborted) throw new StoppedError('the worker is stopping');
        const now = this.options.clock.now();
        const updated = await updateProgress(db, jobId, this.owner, {
          percent_complete: percentComplete,
          result: toJson(result),
          updated_at: now.toISOString(),
          lease_until: new Date(now.getTime() + this.leaseMs).toISOString(),
        });
        if (updated === 0) throw new LeaseLostError('the job was taken over by another worker');
      },
    };
  }
}
