import { randomUUID } from 'node:crypto';
import type { Clock } from '../clock.js';
import { fromJson, toJson } from '../db/json.js';
import type { Queryable } from '../deps.js';
import type { BlobStore } from '../files/blob-store.js';
import { type Backoff, backoffDelayMs, LoopFailureLog, Wakeup, type Worker } from '../workers.js';
import { giveUpMessage, JobAttempt, LeaseLostError } from './job-attempt.js';
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
  /**
   * Fires when the worker is stopping or the job's lease was lost: a handler checks it between steps
   * and returns by throwing.
   */
  signal: AbortSignal;
  now(): Date;
  /**
   * Records progress and renews the lease. Pass the transaction that wrote the step's work, so the
   * checkpoint and the work commit together; throws LeaseLostError (rolling that transaction back) when
   * another worker took the job over.
   */
  checkpoint(db: Queryable, percentComplete: number, result: unknown): Promise<void>;
  /**
   * The key this attempt writes the file meant for `finalKey` to: its own temporary blob, renamed to
   * `finalKey` once the attempt completes still holding the lease, and removed otherwise. Absent when a
   * handler is called directly (a test, a tool): it then writes `finalKey` itself.
   */
  outputKey?(blobs: BlobStore, finalKey: string): string;
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
export { LeaseLostError };

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
  /** How long a claim holds a job; the heartbeat renews it every third of that while the job runs. */
  leaseMs?: number;
  /** Attempts a job gets; one claimed past them fails saying so instead of running again. */
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
  private readonly wakeup = new Wakeup();
  private readonly onQueued = () => this.wakeup.wake();
  private readonly loopFailures = new LoopFailureLog((error) =>
    this.options.log?.('job worker: claiming failed', error),
  );

  constructor(private readonly options: JobWorkerOptions) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
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
    this.wakeup.wake();
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
      if (ran === 0 && !signal.aborted) await this.wakeup.wait(this.pollMs);
    }
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
    // Counted at the claim, so an attempt whose worker died (kill -9, a lost node) counts too.
    if (job.attempts > this.maxAttempts)
      return this.fail(job, handler, giveUpMessage(this.maxAttempts, row.error));
    const attempt = new JobAttempt({
      ...this.options,
      owner: this.owner,
      leaseMs: this.leaseMs,
      job,
      stopping: this.controller.signal,
    });
    attempt.startHeartbeat();
    try {
      const result = await handler.run(job, this.context(job.id, attempt));
      await attempt.stopHeartbeat();
      await this.complete(job, handler, attempt, result);
    } catch (error) {
      await attempt.stopHeartbeat();
      await attempt.discard();
      await this.handleError(job, handler, attempt, error);
    }
  }

  /**
   * Publishes the attempt's files and marks the job complete, only while this worker holds the lease
   * (renewed just before, and checked again by the update that completes the job). The files go first:
   * a crash between the two leaves a pending job whose next attempt writes them again, never a complete
   * job without its file.
   */
  private async complete(job: RunningJob, handler: JobHandler, attempt: JobAttempt, result: unknown) {
    if (!(await attempt.renew())) throw new LeaseLostError('the lease was lost before the job completed');
    await attempt.publish();
    const ended = await finishJob(this.options.db, job.id, this.owner, {
      status: 'complete',
      percent_complete: 100,
      result: toJson(result),
      error: null,
      at: this.options.clock.now().toISOString(),
    });
    if (ended === 1) await handler.finished?.(job);
  }

  private async handleError(job: RunningJob, handler: JobHandler, attempt: JobAttempt, error: unknown) {
    const now = this.options.clock.now();
    if (error instanceof LeaseLostError || attempt.leaseLost) return; // another worker owns it now
    if (error instanceof StoppedError || this.controller.signal.aborted) {
      const dueAt = now.toISOString();
      return releaseJob(this.options.db, job.id, this.owner, { dueAt, refundAttempt: true });
    }
    if (error instanceof JobFailure) {
      if (error.cause)
        this.options.log?.(`job ${job.id} (${job.kind}) failed: ${error.message}`, error.cause);
      return this.fail(job, handler, error.message);
    }
    this.options.log?.(`job ${job.id} (${job.kind}) attempt ${job.attempts} failed`, error);
    if (job.attempts >= this.maxAttempts) {
      const message = `The job failed unexpectedly after ${job.attempts} attempts; the server log has the details.`;
      return this.fail(job, handler, message);
    }
    const retryAt = new Date(now.getTime() + backoffDelayMs(job.attempts, JOB_BACKOFF));
    // The attempt's reason stays on the row (hidden until the job fails) for the give-up message.
    const reason = toJson({ message: String((error as Error)?.message ?? error), attempt: job.attempts });
    return releaseJob(this.options.db, job.id, this.owner, { dueAt: retryAt.toISOString(), error: reason });
  }

  private async fail(job: RunningJob, handler: JobHandler | undefined, message: string): Promise<void> {
    await finishJob(this.options.db, job.id, this.owner, {
      status: 'failed',
      error: toJson({ message }),
      at: this.options.clock.now().toISOString(),
    });
    await handler?.finished?.(job);
  }

  private context(jobId: string, attempt: JobAttempt): JobContext {
    const { signal } = attempt;
    return {
      signal,
      now: () => this.options.clock.now(),
      checkpoint: async (db, percentComplete, result) => {
        if (attempt.leaseLost) throw new LeaseLostError('the job was taken over by another worker');
        if (signal.aborted) throw new StoppedError('the worker is stopping');
        const now = this.options.clock.now();
        const updated = await updateProgress(db, jobId, this.owner, {
          percent_complete: percentComplete,
          result: toJson(result),
          updated_at: now.toISOString(),
          lease_until: new Date(now.getTime() + this.leaseMs).toISOString(),
        });
        if (updated === 0) {
          attempt.lose();
          throw new LeaseLostError('the job was taken over by another worker');
        }
      },
      outputKey: (blobs, finalKey) => attempt.output(blobs, finalKey),
    };
  }
}

/** Attempts a job gets unless the worker is told otherwise (FIELDWORK_JOB_MAX_ATTEMPTS). */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** About 1.5 s, 3, 6 ... s, at most 5 min, ±25 %. */
const JOB_BACKOFF: Backoff = { baseMs: 1_500, factor: 2, capMs: 300_000, jitter: 0.25 };
