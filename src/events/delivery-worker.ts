import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { randomAlphanumeric } from '../http/ids.js';
import { LoopFailureLog, Wakeup, type Worker } from '../workers.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { buildMessage } from './message.js';
import {
  abandon,
  type ClaimedDelivery,
  claimDeliveries,
  type DeliveryTarget,
  loadTargets,
  releaseDeliveries,
  targetKey,
} from './outbox.store.js';
import { onEventRecorded } from './record-event.js';
import { type AttemptResult, type Decision, decide } from './retry.js';
import { openSecret, UnreadableSecretError } from './sealed-secret.js';
import { secretKeyOf } from './secret-key.js';
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

/** A claimed delivery, its subscription (undefined once deleted), and when its lease ends (epoch ms). */
interface Claimed {
  row: ClaimedDelivery;
  target: DeliveryTarget | undefined;
  leaseEnds: number;
}

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
  private readonly ready: Claimed[] = [];
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly recorder: AttemptRecorder;
  private stopListening: (() => void) | undefined;
  /** Room came free (or an event was recorded) since the loop last looked: claim before sleeping. */
  private readonly wakeup = new Wakeup();
  private readonly claimFailures = new LoopFailureLog((error) =>
    this.log.error({ err: error, worker: this.owner }, 'claiming event deliveries failed'),
  );
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
      this.wakeup.wake();
    });
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopListening?.();
    this.wakeup.wake();
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
        this.claimFailures.succeeded();
      } catch (error) {
        // The database may be away (restart, failover): the loop keeps polling until it is back.
        this.claimFailures.failed(error);
      }
      if (claimed === 0 || this.ready.length >= this.concurrency) await this.pause();
    }
  }

  /** Waits for the poll interval, a free slot, or stop(); not at all if a slot came free meanwhile. */
  private pause(): Promise<void> {
    // The nudge may come before the recording transaction commits (on PostgreSQL the claim then misses
    // it): after one, look again at doubling intervals (2, 4, 8 ... ms) up to the poll interval.
    const sinceNudge = performance.now() - this.nudgedAt;
    const delay = sinceNudge < this.pollMs ? Math.max(2, Math.min(sinceNudge, this.pollMs)) : this.pollMs;
    return this.wakeup.wait(delay);
  }

  /**
   * Keeps the window full without a round trip per delivery: a finished delivery is replaced at once from
   * rows claimed ahead, and claims come in batches (a claim has a fixed cost, and scans past the rows
   * leased already, so 64 rows cost far less than twice 32). While receivers answer quickly, claims take
   * at least two slots' worth and up to three wait claimed; while they are slow, one slot's worth of
   * each, so that no claimed row waits longer than one attempt and its lease still covers its own
   * attempt when its turn comes.
   */
  private async claimAndDispatch(): Promise<number> {
    const want = this.wanted();
    if (want < this.batchSize()) {
      this.dispatchReady();
      return 0;
    }
    this.wakeup.clear();
    const claim = this.claim(want);
    this.claiming = claim;
    try {
      return await claim;
    } finally {
      if (this.claiming === claim) this.claiming = undefined;
    }
  }

  /** How many rows the window has room for. */
  private wanted(): number {
    const ahead = this.fast() ? 3 * this.concurrency : this.concurrency;
    return this.concurrency + ahead - this.inFlight.size - this.ready.length;
  }

  /** The fewest rows worth a claim. */
  private batchSize(): number {
    return this.fast() ? 2 * this.concurrency : this.concurrency;
  }

  private fast(): boolean {
    return this.averageLatencyMs < SLOW_ATTEMPT_MS;
  }

  private async claim(want: number): Promise<number> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const rows = await claimDeliveries(db, this.owner, now, this.leaseMs, want);
    const targets = await loadTargets(db, rows);
    // The lease the claim wrote (db/claim.ts): the same for the whole batch.
    const leaseEnds = now.getTime() + this.leaseMs;
    for (const row of rows) this.ready.push({ row, target: targets.get(targetKey(row)), leaseEnds });
    this.claimedCount += rows.length;
    this.dispatchReady();
    return rows.length;
  }

  private dispatchReady(): void {
    let now: number | undefined;
    while (this.inFlight.size < this.concurrency) {
      const next = this.ready.shift();
      if (!next) return;
      now ??= this.deps.clock.now().getTime();
      // A row that waited so long its lease could run out mid-attempt is left to be claimed afresh, so
      // that two workers never attempt the same delivery at once.
      if (next.leaseEnds - now <= DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS) continue;
      const delivery: Promise<void> = this.attempt(next).then(() => this.freed(delivery));
      this.inFlight.add(delivery);
    }
  }

  /** One delivery in its slot; never rejects, so that one failure cannot stop the window. */
  private async attempt(claimed: Claimed): Promise<void> {
    try {
      await this.deliver(claimed.row, claimed.target);
    } catch (error) {
      this.log.error({ err: error, deliveryId: claimed.row.id }, 'delivering an event failed');
    }
  }

  /** A slot came free: it goes to the next claimed row at once. */
  private freed(delivery: Promise<void>): void {
    this.inFlight.delete(delivery);
    if (this.running) this.dispatchReady();
    // Wake the loop only when there is room for a claim's worth: not once per delivery.
    if (this.wanted() >= this.batchSize()) {
      this.wakeup.wake();
    }
  }

  /** Waits until nothing is in flight and nothing claimed is left to send. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.ready.length > 0) {
      this.dispatchReady();
      await Promise.all(this.inFlight);
    }
  }

  /** The sharedKey as stored is sealed (sealed-secret.ts); signing and encrypting need it in clear. */
  private openSharedKey(stored: string): string {
    try {
      return openSecret(stored, secretKeyOf(this.deps.config));
    } catch (error) {
      if (error instanceof UnreadableSecretError)
        throw new Error(`the subscription's sharedKey cannot be read: ${error.message}`);
      throw error;
    }
  }

  private async deliver(row: ClaimedDelivery, target: DeliveryTarget | undefined): Promise<void> {
    if (!target) return; // the subscription was deleted after the claim; its deliveries went with it
    if (target.status !== 'active') {
      await abandon(this.deps.db, row, this.owner, 'the subscription is disabled');
      return;
    }
    const attemptedAt = this.deps.clock.now();
    const started = performance.now();
    let result: AttemptResult = {};
    let error: string | null = null;
    try {
      // A key this node cannot open (another node's secret key) is a failed attempt the delivery log shows.
      const message = buildMessage({
        eventId: row.event_id,
        brandId: row.organization_id,
        topic: row.topic,
        payload: row.payload,
        sharedKey: target.shared_key === null ? null : this.openSharedKey(target.shared_key),
        encrypt: target.encrypt === 1,
        sentAt: attemptedAt,
      });
      result = await this.client.post(target.publication_url, message);
      if (result.status !== undefined && (result.status < 200 || result.status >= 300))
        error = `the receiver answered ${result.status}`;
    } catch (thrown) {
      error = describeFailure(thrown);
    }
    const latencyMs = Math.round(performance.now() - started);
    this.averageLatencyMs += (latencyMs - this.averageLatencyMs) / 16;
    const now = this.deps.clock.now();
    const decision = decide(result, row.round_attempts + 1, now, this.random);
    const next = nextState(decision, now);
    this.recorder.add({
      row,
      attempt: {
        attemptedAt: attemptedAt.toISOString(),
        httpStatus: result.status ?? null,
        latencyMs,
        error,
        status: next.status,
        dueAt: next.dueAt,
        disableSubscription: next.disableSubscription,
      },
    });
  }
}

/** The row's next state after an attempt. */
function nextState(decision: Decision, now: Date) {
  switch (decision.kind) {
    case 'delivered':
      return { status: 'delivered' as const, dueAt: null, disableSubscription: false };
    case 'gone':
      return { status: 'failed' as const, dueAt: now.toISOString(), disableSubscription: true };
    case 'give-up':
      return { status: 'failed' as const, dueAt: now.toISOString(), disableSubscription: false };
    case 'retry':
      return {
        status: 'pending' as const,
        dueAt: new Date(now.getTime() + decision.delayMs).toISOString(),
        disableSubscription: false,
      };
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
