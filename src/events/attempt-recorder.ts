import { dialectOf } from '../db/dialect/index.js';
import type { Queryable } from '../deps.js';
import { type RecordedAttempt, recordAttempts } from './outbox.store.js';

export interface RecorderLog {
  error(details: object, message: string): void;
}

/**
 * Group commit for the delivery log: attempts that finish close together are written in one transaction
 * (one lock and one commit for many rows), so recording costs far less than the POSTs themselves. An
 * attempt waits at most the dialect's writeBatchDelayMs, its row leased meanwhile. If a write fails, nothing of its batch
 * is written: those deliveries keep their lease, which runs out, and they are attempted again
 * (at-least-once).
 */
/**
 * A transaction is five round trips on PostgreSQL (begin, update, insert, counter, commit), and each wakes
 * the server: a longer wait there means far fewer of them per delivery. SQLite's run in-process.
 */
export class AttemptRecorder {
  private readonly queue: RecordedAttempt[] = [];
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly owner: string,
    private readonly log: RecorderLog,
    private readonly delayMs = dialectOf(db).writeBatchDelayMs,
    private readonly batchSize = 500,
  ) {}

  add(item: RecordedAttempt): void {
    this.queue.push(item);
    this.flushing ??= new Promise((wait) => setTimeout(wait, this.delayMs))
      .then(() => this.flush())
      .finally(() => {
        this.flushing = undefined;
      });
  }

  /** Resolves once everything added so far is written (or has failed and been logged). */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      try {
        await recordAttempts(this.db, this.owner, batch);
      } catch (error) {
        this.log.error(
          { err: error, deliveryIds: batch.map((b) => b.row.id) },
          'recording event delivery attempts failed; they will be attempted again when their lease runs out',
        );
      }
    }
  }
}
