import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit, INITIAL_LIMIT, type LimitSample } from './concurrency-limit.js';

const BOUNDS = { floor: 1, ceiling: 256 };

/** The samples' clock (ms), shared by every simulation of a test. */
let now = 0;

/**
 * Runs `rounds` round trips against a receiver: each round sends `limit` requests at once (demand keeps
 * the window full) and they all take `latency(inFlight)` ms. Returns the limit after each round.
 */
function simulate(
  limit: ConcurrencyLimit,
  rounds: number,
  latency: (inFlight: number) => number,
  failed: (inFlight: number) => boolean = () => false,
): number[] {
  const history: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const inFlight = limit.value;
    const took = latency(inFlight);
    for (let n = 0; n < inFlight; n++)
      limit.record({ startedAt: now, latencyMs: took, demand: inFlight * 2, failed: failed(inFlight) });
    now += took;
    history.push(limit.value);
  }
  return history;
}

describe('a receiver’s concurrency limit', () => {
  it('starts at the initial limit, within the floor and ceiling', () => {
    expect(new ConcurrencyLimit(BOUNDS).value).toBe(INITIAL_LIMIT);
    expect(new ConcurrencyLimit({ floor: 1, ceiling: 4 }).value).toBe(4);
    expect(new ConcurrencyLimit({ floor: 40, ceiling: 100 }).value).toBe(40);
    expect(() => new ConcurrencyLimit({ floor: 0, ceiling: 4 })).toThrow(RangeError);
    expect(() => new ConcurrencyLimit({ floor: 5, ceiling: 4 })).toThrow(RangeError);
  });

  it('grows past 32 within a few round trips while the answer time stays flat, up to the ceiling', () => {
    const limit = new ConcurrencyLimit(BOUNDS);
    const history = simulate(limit, 40, () => 500);
    // Slow start: 16, 32, 64 ...
    expect(history.findIndex((value) => value > 32)).toBeLessThanOrEqual(2);
    for (let i = 1; i < history.length; i++)
      expect(history[i]).toBeGreaterThanOrEqual(history[i - 1] as number);
    expect(history.at(-1)).toBe(BOUNDS.ceiling);
    expect(Math.max(...history)).toBe(BOUNDS.ceiling);
  });

  it('does not grow while the demand stays under half the limit', () => {
    const limit = new ConcurrencyLimit(BOUNDS);
    for (let n = 0; n < 1000; n++)
      limit.record({ startedAt: n * 60, latencyMs: 50, demand: 7, failed: false });
    expect(limit.value).toBe(INITIAL_LIMIT);
    limit.record({ startedAt: 60_000, latencyMs: 50, demand: 8, failed: false });
    expect(limit.value).toBe(2 * INITIAL_LIMIT);
  });

  it('settles near what a receiver that queues beyond 40 at once can take, not at the ceiling', () => {
    // 50 ms up to 40 at once; beyond that requests wait their turn, so the answer time grows with load.
    const limit = new ConcurrencyLimit(BOUNDS);
    const history = simulate(limit, 300, (inFlight) => 50 * Math.max(1, inFlight / 40));
    expect(Math.max(...history)).toBeLessThan(BOUNDS.ceiling); // slow start stopped on the first slower round
    const settled = history.slice(-100);
    expect(Math.max(...settled)).toBeLessThan(2 * 40);
    expect(Math.min(...settled)).toBeGreaterThanOrEqual(40);
  });

  it('shrinks when the answers slow down at the same load, and recovers when they speed up again', () => {
    const limit = new ConcurrencyLimit(BOUNDS);
    simulate(limit, 20, () => 50);
    const before = limit.value;
    expect(before).toBe(BOUNDS.ceiling);
    const slowed = simulate(limit, 10, () => 400);
    expect(slowed.at(-1)).toBeLessThan(before / 2);
    for (let i = 1; i < slowed.length; i++) expect(slowed[i]).toBeLessThan(slowed[i - 1] as number);
    const recovered = simulate(limit, 30, () => 50);
    expect(recovered.at(-1)).toBe(BOUNDS.ceiling);
  });

  it('halves once per round trip when requests fail, down to the floor, and grows again after', () => {
    const limit = new ConcurrencyLimit(BOUNDS);
    simulate(limit, 10, () => 50);
    const healthy = limit.value;
    // A whole window fails at once: one cut, not one per failed request.
    const sample = (startedAt: number): LimitSample => ({
      startedAt,
      latencyMs: 20,
      demand: 500,
      failed: true,
    });
    for (let n = 0; n < healthy; n++) limit.record(sample(1000));
    expect(limit.value).toBe(Math.floor(healthy / 2));
    // A request sent before that cut was seen (it ended at 1020) says nothing new; one sent after does.
    limit.record(sample(1010));
    expect(limit.value).toBe(Math.floor(healthy / 2));
    limit.record(sample(1021));
    expect(limit.value).toBe(Math.floor(healthy / 4));
    now = 2000;
    const history = simulate(
      limit,
      12,
      () => 20,
      () => true,
    );
    expect(history.at(-1)).toBe(BOUNDS.floor);
    const recovered = simulate(limit, 15, () => 20);
    expect(recovered.at(-1)).toBeGreaterThan(32);
  });

  it('never leaves its floor and ceiling', () => {
    const limit = new ConcurrencyLimit({ floor: 3, ceiling: 20 });
    expect(Math.max(...simulate(limit, 50, () => 10))).toBe(20);
    expect(
      Math.min(
        ...simulate(
          limit,
          50,
          () => 10,
          () => true,
        ),
      ),
    ).toBe(3);
  });
});
