import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { randomAlphanumeric } from '../http/ids.js';
import type { Worker } from '../workers.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { buildMessage } from './message.js';
import {
  abandon,
  claimDeliveries,
  type DeliveryContext,
  type DeliveryRow,
  loadContexts,
  releaseDeliveries,
} from './outbox.store.js';
import { onEventRecorded } from './record-event.js';
import { type AttemptResult, type Decision, decide } from './retry.js';
import { createWebhookClient, DELIVERY_TIMEOUT_MS, type WebhookClient } from './webhook-client.js';

export interface DeliveryLog {
  error(details: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  /** Deliveries in flight at once. */
  concurrency?: number;
  /** How often an idle worker looks for due deliveries. */
  pollMs?: number;
  /** A claim lasts this long; a worker that dies leaves it to run out. Longer than a whole attempt. */
  leaseMs?: number;
  random?: () => number;
  client?: WebhookClient;
  log?: DeliveryLog;
}

/** Time a lease must still have when an attempt starts, beyond the attempt's own timeout. */
const LEASE_MARGIN_MS = 5_000;
/** Attempts slower than this on average make the worker claim less ahead (see claimAndDispatch). */
const SLOW_ATTEMPT_MS = 1_000;

const stderrLog: DeliveryLog = {
  error: (details, message) => process.stderr.write(`${JSON.stringify({ ...details, msg: message })}\n`),
};

/**
 * The delivery worker (DESIGN.md "Events"): claims due deliveries with the shared lease-based claim
 * (`FOR UPDATE SKIP LOCKED` on PostgreSQL), POSTs them, records every attempt, and schedules retries.
 * At-least-once: a worker killed mid-POST leaves its lease to run out, and the delivery is sent again with
 * the same webhook-id.
 */
export class DeliveryWorker implements Worker {
  readonly name = 'event-delivery';
  /** Recorded on every attempt, so the log shows which worker made it. */
  readonly owner = `${hostname()}:${process.pid}:${randomAlphanumeric(6)}`;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private readonly makeClient: () => WebhookClient;
  private client: WebhookClient;
  private readonly log: DeliveryLog;
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed, waiting for a free slot. */
  private readonly ready: { row: DeliveryRow; context: DeliveryContext | undefined }[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private readonly recorder: AttemptRecorder;
  private stopListening: (() => void) | undefined;
  /** Room came free (or an event was recorded) since the loop last looked: claim before sleeping. */
  private lookAgain = false;
  /** Moving average of recent attempts' duration. */
  private averageLatencyMs = 0;
  /** A claim under way, and how many rows were claimed so far (for deliverDue). */
  private claiming: Promise<number> | undefined;
  private claimedCount = 0;
  /** When an event was last recorded in this process (performance.now()). */
  private nudgedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: Deps,
    options: DeliveryWorkerOptions = {},
  ) {
    this.concurrency = options.concurrency ?? 32;
    this.pollMs = options.pollMs ?? 100;
    this.leaseMs = options.leaseMs ?? 3 * DELIVERY_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
    this.makeClient = () =>
      options.client ?? createWebhookClient({ allowPrivateTargets: deps.config.allowPrivateTargets });
    this.client = this.makeClient();
    this.log = options.log ?? stderrLog;
    this.recorder = new AttemptRecorder(deps.db, this.owner, this.log);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopListening = onEventRecorded(() => {
      this.nudgedAt = performance.now();
      this.lookAgain = true;
      this.wake?.();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopListening?.();
    this.wake?.();
    await this.loop;
    // Claimed but not started: hand them back now rather than when their lease runs out.
    const unsent = this.ready.splice(0).map((r) => r.row.id);
    await releaseDeliveries(this.deps.db, this.owner, unsent).catch((error) =>
      this.log.error({ err: error }, 'releasing claimed event deliveries failed'),
    );
    await Promise.all(this.inFlight);
    await this.recorder.settled();
    // The connection pool closes with the worker; a later start() gets a fresh one.
    const client = this.client;
    this.client = this.makeClient();
    await client.close();
  }

  /**
   * Delivers everything due now and waits for it: tests call this after moving the clock. Returns how
   * many deliveries were claimed meanwhile, by this call or by the running loop (whose claim under way
   * is waited for, so that what it takes is delivered before this returns).
   */
  async deliverDue(): Promise<number> {
    const before = this.claimedCount;
    for (;;) {
      // Its failure is the loop's to log; here it only means nothing was added.
      await this.claiming?.catch(() => 0);
      await this.drain();
      const claimed = await this.claimAndDispatch();
      await this.drain();
      await this.recorder.settled();
      if (claimed === 0 && !this.claiming) return this.claimedCount - before;
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.claimAndDispatch();
      } catch (error) {
        this.log.error({ err: error, worker: this.owner }, 'claiming event deliveries failed');
      }
      if (claimed === 0 || this.ready.length >= this.concurrency) await this.pause();
    }
  }

  /** Waits for the poll interval, a free slot, or stop(); not at all if a slot came free meanwhile. */
  private pause(): Promise<void> {
    if (this.lookAgain) {
      this.lookAgain = false;
      return Promise.resolve();
    }
    // The nudge may come before the recording transaction commits (on PostgreSQL the claim then misses
    // it): after one, look again at doubling intervals (2, 4, 8 ... ms) up to the poll interval.
    const sinceNudge = performance.now() - this.nudgedAt;
    const delay = sinceNudge < this.pollMs ? Math.max(2, Math.min(sinceNudge, this.pollMs)) : this.pollMs;
    return new Promise((resolve) => {
      const timer = setTimeout(done, delay);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }

  /**
   * Keeps the window full without a round trip per delivery: a finished delivery is replaced at once from
   * rows claimed ahead, and claims come in batches of at least `concurrency` rows (a claim costs about
   * the same for 10 rows as for 100). While receivers answer quickly, up to twice the slots wait claimed;
   * while they are slow, only one slot's worth, so that no claimed row waits longer than one attempt and
   * its lease still covers its own attempt when its turn comes.
   */
  private async claimAndDispatch(): Promise<number> {
    const want = this.wanted();
    if (want < this.concurrency) {
      this.dispatchReady();
      return 0;
    }
    this.lookAgain = false;
    const claim = this.claim(want);
    this.claiming = claim;
    try {
      return await claim;
    } finally {
      if (this.claiming === claim) this.claiming = undefined;
    }
  }

  /** How many rows the window has room for: a claim is worth making from `concurrency` up. */
  private wanted(): number {
    const ahead = this.averageLatencyMs < SLOW_ATTEMPT_MS ? 2 * this.concurrency : this.concurrency;
    return this.concurrency + ahead - this.inFlight.size - this.ready.length;
  }

  private async claim(want: number): Promise<number> {
    const { db, clock } = this.deps;
    const rows = await claimDeliveries(db, this.owner, clock.now(), this.leaseMs, want);
    const contexts = await loadContexts(db, rows);
    for (const row of rows) this.ready.push({ row, context: contexts.get(row.id) });
    this.claimedCount += rows.length;
    this.dispatchReady();
    return rows.length;
  }

  private dispatchReady(): void {
    while (this.inFlight.size < this.concurrency) {
      const next = this.ready.shift();
      if (!next) return;
      // A row that waited so long its lease could run out mid-attempt is left to be claimed afresh, so
      // that two workers never attempt the same delivery at once.
      if (!this.leaseCovers(next.row)) continue;
      const delivery = this.deliver(next.row, next.context)
        .catch((error) =>
          this.log.error({ err: error, deliveryId: next.row.id }, 'delivering an event failed'),
        )
        .finally(() => {
          this.inFlight.delete(delivery);
          if (this.running) this.dispatchReady();
          // Wake the loop only when there is room for a claim's worth: not once per delivery.
          if (this.wanted() >= this.concurrency) {
            this.lookAgain = true;
            this.wake?.();
          }
        });
      this.inFlight.add(delivery);
    }
  }

  private leaseCovers(row: DeliveryRow): boolean {
    const leaseEnds = row.lease_until ? Date.parse(row.lease_until) : 0;
    return leaseEnds - this.deps.clock.now().getTime() > DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS;
  }

  /** Waits until nothing is in flight and nothing claimed is left to send. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.ready.length > 0) {
      this.dispatchReady();
      await Promise.all(this.inFlight);
    }
  }

  private async deliver(row: DeliveryRow, context: DeliveryContext | undefined): Promise<void> {
    if (!context) return; // the subscription was deleted after the claim; its deliveries went with it
    if (context.subscription_status !== 'active') {
      await abandon(this.deps.db, row, this.owner, 'the subscription is disabled');
      return;
    }
    const attemptedAt = this.deps.clock.now();
    const message = buildMessage({
      eventId: context.event_id,
      brandId: row.organization_id,
      topic: context.topic,
      payload: context.payload,
      sharedKey: context.shared_key,
      encrypt: context.encrypt === 1,
      sentAt: attemptedAt,
    });
    const started = performance.now();
    let result: AttemptResult = {};
    let error: string | null = null;
    try {
      result = await this.client.post(context.publication_url, message);
      if (result.status !== undefined && (result.status < 200 || result.status >= 300))
        error = `the receiver answered ${result.status}`;
    } catch (thrown) {
      error = describeFailure(thrown);
    }
    const latencyMs = Math.round(performance.now() - started);
    this.averageLatencyMs += (latencyMs - this.averageLatencyMs) / 16;
    const decision = decide(result, row.round_attempts + 1, this.deps.clock.now(), this.random);
    this.recorder.add({
      row,
      attempt: {
        attemptedAt: attemptedAt.toISOString(),
        httpStatus: result.status ?? null,
        latencyMs,
        error,
        ...this.nextState(decision),
      },
    });
  }

  private nextState(decision: Decision) {
    const now = this.deps.clock.now();
    const dueAt = now.toISOString();
    switch (decision.kind) {
      case 'delivered':
        return { status: 'delivered' as const, dueAt, disableSubscription: false };
      case 'gone':
        return { status: 'failed' as const, dueAt, disableSubscription: true };
      case 'give-up':
        return { status: 'failed' as const, dueAt, disableSubscription: false };
      case 'retry':
        return {
          status: 'pending' as const,
          dueAt: new Date(now.getTime() + decision.delayMs).toISOString(),
          disableSubscription: false,
        };
    }
  }
}

/** One line for the delivery log: timeouts and refusals said plainly, network errors by their code. */
function describeFailure(thrown: unknown): string {
  const error = thrown as { name?: string; code?: string; message?: string; cause?: unknown };
  if (error.name === 'TimeoutError' || error.code === 'UND_ERR_HEADERS_TIMEOUT')
    return 'no answer in time (timed out)';
  if (error.message?.startsWith('refused:')) return error.message;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.message ?? error.message ?? String(thrown);
  const code = cause?.code ?? error.code;
  return (code && !detail.includes(code) ? `${code}: ${detail}` : detail).slice(0, 500);
}
