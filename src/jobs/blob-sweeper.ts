import type { Clock } from '../clock.js';
import type { BlobStore } from '../files/blob-store.js';
import { Wakeup, type Worker } from '../workers.js';

const HOUR_MS = 3_600_000;

/**
 * Runs the BlobStore's `removeStale` once an hour (issue 18 item 5): interrupted saves, and contents
 * replaced or removed more than an hour ago (kept that long for downloads still streaming them). Any
 * number of nodes may sweep at once: each deletion is idempotent.
 */
export class BlobSweeper implements Worker {
  readonly name = 'blob-sweeper';
  private readonly wakeup = new Wakeup();
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly options: {
      blobs: BlobStore;
      clock: Clock;
      everyMs?: number;
      log?: (message: string, error?: unknown) => void;
    },
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeup.wake();
    await this.loop;
  }

  /** Deletes leftovers older than an hour; answers how many. */
  sweep(): Promise<number> {
    return this.options.blobs.removeStale(new Date(this.options.clock.now().getTime() - HOUR_MS));
  }

  private async run(): Promise<void> {
    const every = this.options.everyMs ?? HOUR_MS;
    while (this.running) {
      await this.wakeup.wait(every);
      if (!this.running) return;
      await this.sweep().catch((error: unknown) => this.options.log?.('removing stale blobs failed', error));
    }
  }
}
