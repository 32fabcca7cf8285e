import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { randomAlphanumeric } from '../http/ids.js';
import { LoopFailureLog, Wakeup, type Worker } from '../workers.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { attemptDelivery } from './delivery-attempt.js';
import {
  type ClaimedDelivery,
  claimDeliveries,
  type DeliveryTarget,
  loadTargets,
  releaseDeliveries,
  type SubscriptionRef,
  targetKey,
} from './outbox.store.js';
import { type Outcome, ReceiverWindows, type Started } from './receiver-windows.js';
import { onEventRecorded } from './record-event.js';
import { createWebhookClient, DELIVERY_TIMEOUT_MS, type WebhookClient } from './webhook-client.js';

export interface DeliveryLog {
  error(details: object, message: string): void;
}

export interface DeliveryWorkerOptions {
  /** Deliveries in flight at once over all receivers (default `--webhook-concurrency`). */
  concurrency?: number;
  /** The fewest and the most in flight to one receiver (default `--webhook-receiver-min` and `-max`). */
  receiverFloor?: number;
  receiverCeiling?: number;
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
/** How often a worker that keeps finding rows looks for more (else `pollMs`). */
const BUSY_POLL_MS = 20;
/** Deliveries that make no request (their subscription is gone or disabled) wait in this window. */
const NO_RECEIVER = '';

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
 * the same webhook-id. How many POSTs are in flight is decided per receiver (the target URL's origin) by
 * an adaptive limit (concurrency-limit.ts; decision 0013), under the process's cap.
 */
export class DeliveryWorker implements Worker {
  readonly name = 'event-delivery';
  /** Recorded on every attempt, so the log shows which worker made it. */
  readonly owner = `${hostname()}:${process.pid}:${randomAlphanumeric(6)}`;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly random: () => number;
  private readonly makeClient: () => WebhookClient;
  private client: WebhookClient;
  private readonly log: DeliveryLog;
  private readonly inFlight = new Set<Promise<void>>();
  /** Claimed deliveries by receiver: waiting for a slot under its limit, or in flight. */
  private readonly windows: ReceiverWindows<Claimed>;
  /** The subscriptions seen per receiver, most recently claimed last: a full receiver's are skipped. */
  private readonly subscriptionsOf = new Map<string, Map<string, SubscriptionRef>>();
  /** publication_url → its origin. */
  private readonly origins = new Map<string, string>();
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly recorder: AttemptRecorder;
  private stopListening: (() => void) | undefined;
  /** Room came free (or an event was recorded) since the loop last looked: claim before sleeping. */
  private readonly wakeup = new Wakeup();
  private readonly claimFailures = new LoopFailureLog((error) =>
    this.log.error({ err: error, worker: this.owner }, 'claiming event deliveries failed'),
  );
  /** A claim under way, and how many rows were claimed so far (for deliverDue). */
  private claiming: Promise<ClaimResult> | undefined;
  private claimedCount = 0;
  /** When an event was last recorded in this process (performance.now()). */
  private nudgedAt = Number.NEGATIVE_INFINITY;
  /** When a claim last found rows (performance.now()): while events keep coming, the loop looks more often. */
  private foundAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly deps: Deps,
    options: DeliveryWorkerOptions = {},
  ) {
    const { config } = deps;
    const ceiling = options.receiverCeiling ?? config.webhookReceiverMax;
    this.windows = new ReceiverWindows({
      processCap: options.concurrency ?? config.webhookConcurrency,
      floor: options.receiverFloor ?? config.webhookReceiverMin,
      ceiling,
    });
    this.pollMs = options.pollMs ?? 100;
    this.leaseMs = options.leaseMs ?? 3 * DELIVERY_TIMEOUT_MS;
    this.random = options.random ?? Math.random;
    this.makeClient = () =>
      options.client ??
      // A socket per request in flight to one receiver, up to its ceiling.
      createWebhookClient({ allowPrivateTargets: config.allowPrivateTargets, connectionsPerOrigin: ceiling });
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
    const unsent = this.windows.takeQueued().map((r) => r.row.id);
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
      await this.claiming?.catch(() => undefined);
      await this.drain();
      const { got } = await this.claimAndDispatch(true);
      await this.drain();
      await this.recorder.settled();
      if (got === 0 && !this.claiming) return this.claimedCount - before;
    }
  }

  private async run(): Promise<void> {
    // After a pause (the poll interval, a nudge) the claim also looks for receivers with nothing held.
    let discover = true;
    while (this.running) {
      let more = false;
      try {
        const { asked, got } = await this.claimAndDispatch(discover);
        more = asked > 0 && got >= asked;
        this.claimFailures.succeeded();
      } catch (error) {
        // The database may be away (restart, failover): the loop keeps polling until it is back.
        this.claimFailures.failed(error);
      }
      // A claim that got all it asked for may have left more due: look again at once.
      if (more) {
        discover = false;
        continue;
      }
      await this.pause();
      discover = true;
    }
  }

  /** Waits for the poll interval, room for a claim, or stop(); not at all if room came free meanwhile. */
  private pause(): Promise<void> {
    const now = performance.now();
    // Events recorded by other processes (`--role api`) reach this one only through its polls: while
    // they keep coming (a claim found rows within the last second), poll every BUSY_POLL_MS.
    const poll = now - this.foundAt < 1_000 ? Math.min(BUSY_POLL_MS, this.pollMs) : this.pollMs;
    // The nudge may come before the recording transaction commits (on PostgreSQL the claim then misses
    // it): after one, look again at doubling intervals (2, 4, 8 ... ms) up to the poll interval.
    const sinceNudge = now - this.nudgedAt;
    const delay = sinceNudge < poll ? Math.max(2, Math.min(sinceNudge, poll)) : poll;
    return this.wakeup.wait(delay);
  }

  /**
   * Keeps every receiver's window full without a round trip per delivery: a finished delivery is replaced
   * at once from rows claimed ahead for the same receiver, and claims come in batches (a claim has a fixed
   * cost, and scans past the rows leased already, so 64 rows cost far less than twice 32). What to ask
   * for is the windows' claim plan: the room of the receivers with room for a claim's worth, and the
   * receivers that hold enough, whose subscriptions' rows the claim leaves alone (fair claiming: a slow
   * receiver's backlog, due first, does not fill every claim while a fast one's rows wait behind it).
   */
  private async claimAndDispatch(discover: boolean): Promise<ClaimResult> {
    const plan = this.windows.claimPlan(discover);
    if (plan.rows === 0) {
      this.dispatch();
      return { asked: 0, got: 0 };
    }
    this.wakeup.clear();
    const claim = this.claim(plan.rows, this.skipped(plan.full));
    this.claiming = claim;
    try {
      return await claim;
    } finally {
      if (this.claiming === claim) this.claiming = undefined;
    }
  }

  /** The subscriptions of full receivers, most recently claimed first; forgets receivers the windows forgot. */
  private skipped(full: string[]): SubscriptionRef[] {
    for (const receiver of this.subscriptionsOf.keys())
      if (!this.windows.has(receiver)) this.subscriptionsOf.delete(receiver);
    return full.flatMap((receiver) => [...(this.subscriptionsOf.get(receiver)?.values() ?? [])].reverse());
  }

  private async claim(want: number, skip: SubscriptionRef[]): Promise<ClaimResult> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const rows = await claimDeliveries(db, this.owner, now, this.leaseMs, want, skip);
    if (rows.length > 0) this.foundAt = performance.now();
    const targets = await loadTargets(db, rows);
    // The lease the claim wrote (db/claim.ts): the same for the whole batch.
    const leaseEnds = now.getTime() + this.leaseMs;
    const handBack: string[] = [];
    for (const row of rows) {
      const target = targets.get(targetKey(row));
      const receiver = this.receiverOf(row, target);
      // More than its window holds (a receiver not known as full yet): claimable again at once.
      if (this.windows.add(receiver, { row, target, leaseEnds })) this.claimedCount++;
      else handBack.push(row.id);
    }
    this.dispatch();
    if (handBack.length > 0) await releaseDeliveries(db, this.owner, handBack);
    return { asked: want, got: rows.length };
  }

  /** The delivery's receiver: its URL's origin (scheme, host and port); remembers the subscription there. */
  private receiverOf(row: ClaimedDelivery, target: DeliveryTarget | undefined): string {
    let receiver = NO_RECEIVER;
    if (target?.status === 'active') {
      const url = target.publication_url;
      receiver = this.origins.get(url) ?? originOf(url);
      if (this.origins.size >= 10_000) this.origins.clear();
      this.origins.set(url, receiver);
    }
    let subscriptions = this.subscriptionsOf.get(receiver);
    if (!subscriptions) {
      subscriptions = new Map();
      this.subscriptionsOf.set(receiver, subscriptions);
    }
    const key = targetKey(row);
    subscriptions.delete(key); // to the end: the most recently claimed
    subscriptions.set(key, { organization_id: row.organization_id, subscription_id: row.subscription_id });
    return receiver;
  }

  /** Starts what the windows allow: round-robin over receivers under their limit, under the cap. */
  private dispatch(): void {
    let now: number | undefined;
    for (let started = this.windows.next(); started; started = this.windows.next()) {
      now ??= this.deps.clock.now().getTime();
      // A row that waited so long its lease could run out mid-attempt is left to be claimed afresh, so
      // that two workers never attempt the same delivery at once.
      if (started.item.leaseEnds - now <= DELIVERY_TIMEOUT_MS + LEASE_MARGIN_MS) {
        this.windows.done(started);
        continue;
      }
      const begun = started;
      const delivery: Promise<void> = this.attempt(begun.item).then((outcome) =>
        this.freed(delivery, begun, outcome),
      );
      this.inFlight.add(delivery);
    }
  }

  /** One delivery in its slot; never rejects, so that one failure cannot stop the window. */
  private async attempt(claimed: Claimed): Promise<Outcome | undefined> {
    try {
      const { deps, owner, client, random, recorder } = this;
      return await attemptDelivery({ deps, owner, client, random, recorder }, claimed.row, claimed.target);
    } catch (error) {
      this.log.error({ err: error, deliveryId: claimed.row.id }, 'delivering an event failed');
      return undefined;
    }
  }

  /** A slot came free: it goes to the next claimed row at once; the loop claims when there is room. */
  private freed(delivery: Promise<void>, started: Started<Claimed>, outcome: Outcome | undefined): void {
    this.inFlight.delete(delivery);
    const claimNow = this.windows.done(started, outcome);
    if (this.running) this.dispatch();
    // Wake the loop only when a full receiver has room for a claim's worth: not once per delivery.
    if (claimNow) this.wakeup.wake();
  }

  /** Waits until nothing is in flight and nothing claimed is left to send. */
  private async drain(): Promise<void> {
    while (this.inFlight.size > 0 || this.windows.queued > 0) {
      this.dispatch();
      await Promise.all(this.inFlight);
    }
  }
}

interface ClaimResult {
  /** Rows the claim asked for, and rows it got. */
  asked: number;
  got: number;
}

/** The receiver a URL names: scheme, host and port. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
