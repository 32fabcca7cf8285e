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
