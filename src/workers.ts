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
