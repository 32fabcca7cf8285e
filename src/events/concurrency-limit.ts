/**
 * How many webhook POSTs may be in flight to one receiver (issue 20, decision 0013): a gradient limiter
 * after Netflix's concurrency-limits (GradientLimit), with TCP's slow start and a multiplicative decrease
 * when the receiver fails. Plain state and arithmetic, no timers and no I/O: the receiver windows
 * (receiver-windows.ts) feed it one sample per finished request, and the unit tests feed it made-up ones.
 *
 * - Samples are taken in rounds of about one round trip: a round ends with the first answer to a request
 *   sent after the round began. Its average answer time is compared with the baseline, the fastest
 *   round of the last five to ten minutes (the receiver's answer time when it is not queueing).
 * - While a round's average stays within TOLERANCE of the baseline, the receiver is not queueing our
 *   requests: the limit doubles per round at first (slow start), and once the receiver has shown a limit
 *   (a slower round or a failure), grows by √limit per round. When a round is slower than that, the
 *   limit shrinks in proportion to the slowdown (to half at most, smoothed), so a receiver that slows
 *   under load gets fewer requests at once.
 * - A failure (no answer in time, a refused or reset connection, 429 or a 5xx) cuts the limit by
 *   BACKOFF at once, and once per round trip: failures of requests that were already on their way when
 *   the limit was last cut say nothing new, as in TCP.
 * - The limit grows only when it is used: a round in which no request found at least half the limit in
 *   demand (in flight plus waiting) leaves it alone, so a receiver that gets a trickle does not collect a
 *   limit nobody tested.
 * - It stays within the floor and the ceiling it is given.
 */

/** The baseline is the fastest round of the last one or two spans of this long. */
const BASELINE_SPAN_MS = 5 * 60_000;
/** Answers this much slower than the baseline still count as "not queueing". */
const TOLERANCE = 1.5;
/** How far one slower round moves the limit towards its lower estimate. */
const SMOOTHING = 0.2;
/** The share of the limit kept after a failure. */
const BACKOFF = 0.5;
/** A receiver the pool has no answers from yet starts with this many at once (within floor and ceiling). */
export const INITIAL_LIMIT = 16;

/** One finished request, as the limit sees it. */
export interface LimitSample {
  /** When the request started, in ms on a monotonic clock (performance.now()). */
  startedAt: number;
  /** How long it took, in ms. */
  latencyMs: number;
  /** Requests to this receiver in flight (this one included) and waiting for a slot when it started. */
  demand: number;
  /** No answer in time, a connection refused or reset, 429 or 5xx. */
  failed: boolean;
}

export interface LimitBounds {
  /** The fewest in flight, however the receiver behaves (at least 1). */
  floor: number;
  /** The most in flight, however fast it answers. */
  ceiling: number;
}

/** One receiver's limit: `value` requests at once. */
export class ConcurrencyLimit {
  private estimate: number;
  /** The fastest round's average in the span under way and in the one before (the baseline: the lower). */
  private fastestNow = Number.POSITIVE_INFINITY;
  private fastestBefore = Number.POSITIVE_INFINITY;
  private spanStart = Number.NEGATIVE_INFINITY;
  /** Doubling per round until the receiver first shows a limit. */
  private slowStart = true;
  /** The round under way: it began at `roundStart`; its successes' total time, count and top demand. */
  private roundStart = Number.NEGATIVE_INFINITY;
  private roundTotalMs = 0;
  private roundCount = 0;
  private roundDemand = 0;
  /** When the limit was last cut for a failure (the failed request's end, on the samples' clock). */
  private lastCutAt = Number.NEGATIVE_INFINITY;
  /** The last round's average answer time. */
  private lastRoundMs: number | undefined;

  constructor(
    private readonly bounds: LimitBounds,
    initial = INITIAL_LIMIT,
  ) {
    if (!(bounds.floor >= 1 && bounds.ceiling >= bounds.floor))
      throw new RangeError(`a limit needs 1 <= floor <= ceiling, got ${bounds.floor} and ${bounds.ceiling}`);
    this.estimate = this.clamp(initial);
  }

  /** Requests allowed in flight now. */
  get value(): number {
    return Math.floor(this.estimate);
  }

  /** The last round's average answer time in ms; undefined before the first round ends. */
  get latencyMs(): number | undefined {
    return this.lastRoundMs;
  }

  /** Takes one finished request into account; returns the new limit. */
  record(sample: LimitSample): number {
    const endedAt = sample.startedAt + sample.latencyMs;
    if (sample.failed) {
      // One cut per round trip: requests sent before the last cut were sent under the old limit.
      if (sample.startedAt >= this.lastCutAt) {
        this.estimate = this.clamp(this.estimate * BACKOFF);
        this.lastCutAt = endedAt;
        this.slowStart = false;
        this.startRound(endedAt);
      }
      return this.value;
    }
    this.roundTotalMs += Math.max(sample.latencyMs, 0.1);
    this.roundCount++;
    this.roundDemand = Math.max(this.roundDemand, sample.demand);
    // The round ends with the first answer to a request sent after it began.
    if (sample.startedAt >= this.roundStart) this.endRound(endedAt);
    return this.value;
  }

  private endRound(endedAt: number): void {
    const average = this.roundTotalMs / this.roundCount;
    const demand = this.roundDemand;
    this.startRound(endedAt);
    this.lastRoundMs = average;
    const baseline = this.baselineWith(average, endedAt);
    if (demand < this.estimate / 2) return;
    const gradient = Math.max(0.5, Math.min(1, (TOLERANCE * baseline) / average));
    if (gradient >= 1) {
      this.estimate = this.clamp(
        this.slowStart ? 2 * this.estimate : this.estimate + Math.sqrt(this.estimate),
      );
      return;
    }
    if (this.slowStart) {
      // The first slower round: slow start overshot, by up to twice; back to what the gradient says.
      this.slowStart = false;
      this.estimate = this.clamp(this.estimate * gradient);
      return;
    }
    const target = this.estimate * gradient + Math.sqrt(this.estimate);
    this.estimate = this.clamp(this.estimate * (1 - SMOOTHING) + target * SMOOTHING);
  }

  /**
   * The baseline with this round taken in: the fastest round of the last one or two spans. A minimum,
   * not an average, so that rounds slowed by our own load (slow start overshoots) do not raise it; and
   * one that expires, so that a receiver that became slower for good is measured afresh after a while.
   */
  private baselineWith(average: number, at: number): number {
    if (at - this.spanStart >= BASELINE_SPAN_MS) {
      // Idle for more than a whole span: the span before says nothing about now either.
      this.fastestBefore =
        at - this.spanStart >= 2 * BASELINE_SPAN_MS ? Number.POSITIVE_INFINITY : this.fastestNow;
      this.fastestNow = Number.POSITIVE_INFINITY;
      this.spanStart = at;
    }
    this.fastestNow = Math.min(this.fastestNow, average);
    return Math.min(this.fastestNow, this.fastestBefore);
  }

  private startRound(at: number): void {
    this.roundStart = at;
    this.roundTotalMs = 0;
    this.roundCount = 0;
    this.roundDemand = 0;
  }

  private clamp(limit: number): number {
    return Math.max(this.bounds.floor, Math.min(this.bounds.ceiling, limit));
  }
}
