/**
 * The delivery worker's per-receiver windows (issue 20, decision 0013): which claimed delivery starts
 * next, and how much to claim. Each receiver has its own adaptive limit (concurrency-limit.ts), fed here
 * with one sample per finished request. Plain state, no timers and no I/O, like the limit.
 */
import { ConcurrencyLimit, type LimitBounds } from './concurrency-limit.js';

/** Attempts slower than this on average make a receiver's claims smaller (see `capacity`). */
export const SLOW_ANSWER_MS = 1_000;
/** A receiver with nothing in flight and nothing waiting for this long is forgotten. */
const FORGET_AFTER_MS = 15 * 60_000;

export interface WindowSettings extends LimitBounds {
  /** Requests in flight at once over all receivers (the process's cap). */
  processCap: number;
}

/** A started item: hand it back to `done` when it ends. */
export interface Started<T> {
  receiver: string;
  item: T;
  /** In flight (this one included) plus waiting for this receiver when it started. */
  demand: number;
  /** When it started, on the windows' clock (performance.now() unless given another). */
  startedAt: number;
}

/** How a started item ended, for its receiver's limit; undefined when no request was made. */
export interface Outcome {
  latencyMs: number;
  failed: boolean;
}

interface Receiver<T> {
  key: string;
  limit: ConcurrencyLimit;
  queue: T[];
  /** Index of the queue's first item (items before it were taken). */
  head: number;
  inFlight: number;
  /** In the rotation `next` serves from. */
  rotating: boolean;
  /** Too full to claim for at the last claim: a completion that makes room calls for a claim. */
  waitingForRoom: boolean;
  /** When it last had anything in flight or waiting (performance.now()). */
  lastActive: number;
}

/**
 * The delivery worker's per-receiver windows: claimed items wait in their receiver's queue, and `next`
 * starts them round-robin over the receivers that are under their own limit, while the process is under
 * its cap. So a slow receiver fills only its own window, and a fast one's items never wait behind it.
 * Claims are sized by `claimPlan`: each receiver holds at most `capacity` items (in flight and waiting),
 * and the receivers that are full are named so that the claim can leave their rows alone.
 */
export class ReceiverWindows<T> {
  private readonly receivers = new Map<string, Receiver<T>>();
  /** Receivers with items waiting and room under their limit, in the order they are served. */
  private rotation: Receiver<T>[] = [];
  private rotationHead = 0;
  private inFlightTotal = 0;
  private queuedTotal = 0;

  private readonly settings: WindowSettings;
  /** What a receiver not seen yet starts with. */
  private readonly initialLimit: number;

  /** A ceiling above the process cap could never be used: it is taken down to the cap. */
  constructor(
    settings: WindowSettings,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(settings.processCap >= 1)) throw new RangeError('the process cap must be at least 1');
    const ceiling = Math.min(settings.ceiling, settings.processCap);
    this.settings = { ...settings, ceiling, floor: Math.min(settings.floor, ceiling) };
    this.initialLimit = this.newLimit().value;
  }

  /** Whether it knows the receiver (one with nothing held for a while is forgotten by `claimPlan`). */
  has(receiver: string): boolean {
    return this.receivers.has(receiver);
  }

  get inFlight(): number {
    return this.inFlightTotal;
  }

  get queued(): number {
    return this.queuedTotal;
  }

  /** The most items held (in flight and waiting) over all receivers: four windows' worth of the cap. */
  get processCapacity(): number {
    return 4 * this.settings.processCap;
  }

  /** The receiver's current limit (the initial one for a receiver not seen yet). */
  limitOf(receiver: string): number {
    return this.receivers.get(receiver)?.limit.value ?? this.initialLimit;
  }

  inFlightTo(receiver: string): number {
    return this.receivers.get(receiver)?.inFlight ?? 0;
  }

  /**
   * The most items a receiver holds, in flight and waiting: while it answers within SLOW_ANSWER_MS,
   * three more windows' worth wait claimed (a claim has a fixed cost, so larger claims cost less per
   * row); while it is slower, one, so that no claimed row waits much longer than one answer and its lease
   * still covers its own attempt when its turn comes.
   */
  capacity(receiver: string): number {
    const r = this.receivers.get(receiver);
    const limit = r?.limit.value ?? this.initialLimit;
    return limit * (this.isSlow(r) ? 2 : 4);
  }

  /** Room left under `capacity`. */
  room(receiver: string): number {
    const r = this.receivers.get(receiver);
    return this.capacity(receiver) - (r ? r.inFlight + r.queue.length - r.head : 0);
  }

  /** Queues a claimed item; false when its receiver holds `capacity` already (hand the item back). */
  add(receiver: string, item: T): boolean {
    if (this.room(receiver) <= 0) return false;
    const r = this.receiverOf(receiver);
    r.queue.push(item);
    r.lastActive = this.now();
    this.queuedTotal++;
    this.enter(r);
    return true;
  }

  /** The next item to start, or undefined when none may start now (nothing waits under its limit, or the cap). */
  next(): Started<T> | undefined {
    if (this.inFlightTotal >= this.settings.processCap) return undefined;
    while (this.rotationHead < this.rotation.length) {
      const r = this.rotation[this.rotationHead++] as Receiver<T>;
      r.rotating = false;
      if (r.head >= r.queue.length || r.inFlight >= r.limit.value) continue;
      const item = r.queue[r.head] as T;
      r.queue[r.head++] = undefined as T; // let it go
      if (r.head === r.queue.length) {
        r.queue = [];
        r.head = 0;
      }
      this.queuedTotal--;
      r.inFlight++;
      this.inFlightTotal++;
      const started: Started<T> = {
        receiver: r.key,
        item,
        demand: r.inFlight + r.queue.length - r.head,
        startedAt: this.now(),
      };
      this.enter(r); // back at the end of the rotation, if it may start more
      this.compactRotation();
      return started;
    }
    this.compactRotation();
    return undefined;
  }

  /**
   * A started item ended; `outcome` (when a request was made) goes into its receiver's limit. True when
   * the receiver was too full to claim for and now has room for a claim's worth: time to claim.
   */
  done(started: Started<T>, outcome?: Outcome): boolean {
    const r = this.receivers.get(started.receiver);
    if (!r) throw new Error(`no receiver ${started.receiver} in flight`);
    r.inFlight--;
    this.inFlightTotal--;
    r.lastActive = this.now();
    if (outcome)
      r.limit.record({
        startedAt: started.startedAt,
        latencyMs: outcome.latencyMs,
        demand: started.demand,
        failed: outcome.failed,
      });
    this.enter(r);
    // A slot under the process cap may let another receiver's item start: it is in the rotation already.
    if (r.waitingForRoom && this.room(started.receiver) >= this.claimThreshold(r)) {
      r.waitingForRoom = false;
      return true;
    }
    return false;
  }

  /**
   * What the next claim should ask for: `rows` is the room of the receivers that are busy and have room
   * for a claim's worth (half their capacity), within the process's capacity; `full` names the busy
   * receivers with less room than that, whose rows the claim should leave alone. With no receiver busy,
   * `rows` is a first window for receivers not seen yet (or idle), if `discover`.
   */
  claimPlan(discover: boolean): { rows: number; full: string[] } {
    const processRoom = this.processCapacity - this.inFlightTotal - this.queuedTotal;
    const full: string[] = [];
    let rows = 0;
    const now = this.now();
    for (const [key, r] of this.receivers) {
      const held = r.inFlight + r.queue.length - r.head;
      if (held === 0) {
        if (now - r.lastActive > FORGET_AFTER_MS) this.receivers.delete(key);
        continue;
      }
      const room = this.room(key);
      if (room >= this.claimThreshold(r)) rows += room;
      else {
        r.waitingForRoom = true;
        full.push(key);
      }
    }
    if (rows === 0 && discover) rows = 4 * this.initialLimit;
    return { rows: Math.max(0, Math.min(rows, processRoom)), full };
  }

  /** Takes every waiting item out (a worker stopping hands them back). */
  takeQueued(): T[] {
    const taken: T[] = [];
    for (const r of this.receivers.values()) {
      for (let i = r.head; i < r.queue.length; i++) taken.push(r.queue[i] as T);
      r.queue = [];
      r.head = 0;
    }
    this.queuedTotal = 0;
    this.rotation = [];
    this.rotationHead = 0;
    for (const r of this.receivers.values()) r.rotating = false;
    return taken;
  }

  /** Half of its capacity: a claim for less than that is not worth its fixed cost. */
  private claimThreshold(r: Receiver<T>): number {
    return r.limit.value * (this.isSlow(r) ? 1 : 2);
  }

  private isSlow(r: Receiver<T> | undefined): boolean {
    return (r?.limit.latencyMs ?? 0) >= SLOW_ANSWER_MS;
  }

  private newLimit(): ConcurrencyLimit {
    return new ConcurrencyLimit({ floor: this.settings.floor, ceiling: this.settings.ceiling });
  }

  private receiverOf(key: string): Receiver<T> {
    let r = this.receivers.get(key);
    if (!r) {
      r = {
        key,
        limit: this.newLimit(),
        queue: [],
        head: 0,
        inFlight: 0,
        rotating: false,
        waitingForRoom: false,
        lastActive: this.now(),
      };
      this.receivers.set(key, r);
    }
    return r;
  }

  /** Into the rotation, if it has items waiting and room under its limit and is not there already. */
  private enter(r: Receiver<T>): void {
    if (r.rotating || r.head >= r.queue.length || r.inFlight >= r.limit.value) return;
    r.rotating = true;
    this.rotation.push(r);
  }

  private compactRotation(): void {
    if (this.rotationHead > 64 && this.rotationHead * 2 > this.rotation.length) {
      this.rotation = this.rotation.slice(this.rotationHead);
      this.rotationHead = 0;
    }
    if (this.rotationHead === this.rotation.length) {
      this.rotation = [];
      this.rotationHead = 0;
    }
  }
}
