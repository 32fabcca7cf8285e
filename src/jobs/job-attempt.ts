import type { Clock } from '../clock.js';
import { fromJson } from '../db/json.js';
import type { Queryable } from '../deps.js';
import type { BlobStore } from '../files/blob-store.js';
import { attemptBlobKey } from './job-files.js';
import { renewLease } from './jobs.store.js';

/** The job was taken over by another worker: this attempt's work is discarded. */
export class LeaseLostError extends Error {}

interface Output {
  blobs: BlobStore;
  temporary: string;
  final: string;
}

export interface AttemptOptions {
  db: Queryable;
  clock: Clock;
  owner: string;
  leaseMs: number;
  job: { id: string; organizationId: string; attempts: number };
  /** The worker's stop signal. */
  stopping: AbortSignal;
  log?: (message: string, error?: unknown) => void;
}

/**
 * One run of one job by one worker (issue 18 item 6). While the handler runs, a heartbeat renews the
 * lease every third of its length, so a long step (the SPSS pre-pass) never outlives it; when a renewal
 * finds the lease gone, `signal` fires and the attempt's work is discarded. Its output goes to blobs of
 * its own, renamed into place only once the attempt ends still holding the lease: a losing attempt
 * removes its own blobs, never the winner's.
 */
export class JobAttempt {
  private readonly lease = new AbortController();
  private readonly outputs: Output[] = [];
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<boolean> | undefined;
  readonly signal: AbortSignal;

  constructor(private readonly options: AttemptOptions) {
    this.signal = AbortSignal.any([options.stopping, this.lease.signal]);
  }

  get leaseLost(): boolean {
    return this.lease.signal.aborted;
  }

  startHeartbeat(): void {
    const every = Math.max(5, Math.floor(this.options.leaseMs / 3));
    this.timer = setInterval(() => void this.renew(), every);
  }

  async stopHeartbeat(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
  }

  /** Extends the lease; false (and `signal` aborted) when another worker holds it now. */
  renew(): Promise<boolean> {
    this.beating ??= this.extend().finally(() => {
      this.beating = undefined;
    });
    return this.beating;
  }

  /** The attempt's temporary key for a file that is to end up at `final`. */
  output(blobs: BlobStore, final: string): string {
    const { id, organizationId, attempts } = this.options.job;
    const temporary = attemptBlobKey(organizationId, id, attempts);
    this.outputs.push({ blobs, temporary, final });
    return temporary;
  }

  /** Moves every output into place. */
  async publish(): Promise<void> {
    for (const { blobs, temporary, final } of this.outputs) await blobs.rename(temporary, final);
  }

  /** Removes this attempt's temporary blobs (whatever was saved of them). */
  async discard(): Promise<void> {
    for (const { blobs, temporary } of this.outputs) {
      await blobs.remove(temporary).catch((error: unknown) => {
        this.options.log?.(`job ${this.options.job.id}: removing ${temporary} failed`, error);
      });
    }
  }

  lose(): void {
    this.lease.abort(new LeaseLostError('the job was taken over by another worker'));
  }

  private async extend(): Promise<boolean> {
    if (this.leaseLost) return false;
    const { db, clock, owner, leaseMs, job } = this.options;
    try {
      const until = new Date(clock.now().getTime() + leaseMs).toISOString();
      if ((await renewLease(db, job.id, owner, until)) > 0) return true;
      this.lose();
      return false;
    } catch (error) {
      // The database may be away for a moment: the next beat tries again; the lease may still hold.
      this.options.log?.(`job ${job.id}: renewing the lease failed`, error);
      return true;
    }
  }
}

/**
 * Why a job claimed past its last attempt fails. Such a job's last attempt never reported (a failing
 * one fails the job itself): its worker died or lost the lease. An earlier failure is named, not quoted:
 * its text is for the server log, like every unexpected error's.
 */
export function giveUpMessage(maxAttempts: number, error: string | null): string {
  const earlier = error === null ? undefined : fromJson<{ attempt?: number }>(error).attempt;
  const before = earlier
    ? `; attempt ${earlier} had failed unexpectedly (the server log has the details)`
    : '';
  return (
    `The job gave up after ${maxAttempts} attempts: attempt ${maxAttempts} ended without finishing ` +
    `(its worker stopped or lost the job's lease)${before}.`
  );
}
