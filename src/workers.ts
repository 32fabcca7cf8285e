import { isDatabaseUnavailable } from './db/unavailable.js';

/**
 * Background work that runs beside the API (`--role all`) or alone (`--role worker`): event delivery,
 * imports, exports, e-mail. Each worker polls for due rows; stop() lets the current item finish.
 */
export interface Worker {
  readonly name: string;
  start(): void;
  stop(): Promise<void>;
}

/** Starts every worker, and stops them all (in parallel) on shutdown. */
export class WorkerSet {
  private readonly workers: Worker[] = [];
  private running = false;

  add(worker: Worker): void {
    this.workers.push(worker);
    if (this.running) worker.start();
  }

  start(): void {
    this.running = true;
    for (const worker of this.workers) worker.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }

  get names(): string[] {
    return this.workers.map((worker) => worker.name);
  }
}

/**
 * A worker loop's failure log that writes only the first of a run of "database unavailable" failures:
 * a loop polls every 100 ms to 1 s and would otherwise write a line each time for a whole outage.
 */
export class LoopFailureLog {
  private inOutage = false;

  constructor(private readonly write: (error: unknown) => void) {}

  failed(error: unknown): void {
    const unavailable = isDatabaseUnavailable(error);
    if (!(unavailable && this.inOutage)) this.write(error);
    this.inOutage = unavailable;
  }

  succeeded(): void {
    this.inOutage = false;
  }
}

/**
 * How a worker loop waits (issue 18 item 6, one mechanism for jobs and deliveries): until `wake()` (work
 * was queued in this process, a slot came free, stop()) or the poll interval, whichever comes first. A
 * wake before the wait started is kept, so work queued while the loop was busy is not missed.
 */
export class Wakeup {
  private pending = false;
  private waiting: (() => void) | undefined;

  wake(): void {
    if (this.waiting) this.waiting();
    else this.pending = true;
  }

  /** Forgets a wake that came before the loop started looking (it is about to see that work). */
  clear(): void {
    this.pending = false;
  }

  /** Resolves on the next wake() (at once if one came since the last wait) or after `ms`. */
  wait(ms: number): Promise<void> {
    if (this.pending) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiting = done;
    });
  }
}

export interface Backoff {
  baseMs: number;
  factor: number;
  capMs: number;
  /** The share of the delay drawn at random, either way (0.1: ±10 %). */
  jitter: number;
}

/**
 * Delay before the next attempt after the n-th failed one (n counts from 1): exponential, capped, with
 * jitter so a burst of failures does not come back all at once. The one back-off of jobs and deliveries.
 */
export function backoffDelayMs(failedAttempts: number, backoff: Backoff, random = Math.random): number {
  const raw = Math.min(backoff.baseMs * backoff.factor ** (failedAttempts - 1), backoff.capMs);
  return Math.round(raw * (1 - backoff.jitter + 2 * backoff.jitter * random()));
}
