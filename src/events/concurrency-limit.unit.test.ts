import { describe, expect, it } from 'vitest';
import {
  ConcurrencyLimit,
  INITIAL_LIMIT,
  type LimitSample,
  ReceiverWindows,
  SLOW_ANSWER_MS,
} from './concurrency-limit.js';

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

/** Receiver windows with a manual clock. */
function windows(processCap = 100, bounds = { floor: 1, ceiling: 8 }) {
  let now = 0;
  const w = new ReceiverWindows<string>({ processCap, ...bounds }, () => now);
  return { w, tick: (ms: number) => (now += ms) };
}

describe('the per-receiver windows', () => {
  it('start at most a receiver’s limit at once, and the next waiting item as soon as one ends', () => {
    const { w } = windows();
    for (let n = 0; n < 20; n++) expect(w.add('slow', `s${n}`)).toBe(true);
    const started = [];
    for (let s = w.next(); s; s = w.next()) started.push(s);
    expect(started.map((s) => s.item)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6', 's7']);
    expect(w.inFlight).toBe(8);
    expect(w.queued).toBe(12);
    w.done(started[0] as (typeof started)[number], { latencyMs: 10, failed: false });
    expect(w.next()?.item).toBe('s8');
    expect(w.next()).toBeUndefined();
  });

  it('serve receivers in turn, so a full one does not hold another’s items back', () => {
    const { w } = windows();
    for (let n = 0; n < 30; n++) w.add('slow', `s${n}`);
    for (let n = 0; n < 3; n++) w.add('fast', `f${n}`);
    const started = [];
    for (let s = w.next(); s; s = w.next()) started.push(s.item);
    expect(started.filter((item) => item.startsWith('f'))).toEqual(['f0', 'f1', 'f2']);
    expect(started.filter((item) => item.startsWith('s'))).toHaveLength(8);
    // Round-robin: the fast receiver's items are among the first started, not after the slow one's window.
    expect(started.indexOf('f0')).toBeLessThanOrEqual(1);
  });

  it('keep the process under its cap, sharing it between receivers', () => {
    const { w } = windows(6);
    for (let n = 0; n < 10; n++) {
      w.add('a', `a${n}`);
      w.add('b', `b${n}`);
    }
    const started = [];
    for (let s = w.next(); s; s = w.next()) started.push(s);
    expect(started).toHaveLength(6);
    expect(started.filter((s) => s.receiver === 'a')).toHaveLength(3);
    w.done(started[0] as (typeof started)[number], { latencyMs: 5, failed: false });
    expect(w.next()).toBeDefined();
    expect(w.next()).toBeUndefined();
  });

  it('hold at most four windows per receiver (two when it answers slowly) and hand the rest back', () => {
    const { w } = windows(100, { floor: 1, ceiling: 8 });
    let accepted = 0;
    for (let n = 0; n < 50; n++) if (w.add('r', `r${n}`)) accepted++;
    expect(accepted).toBe(4 * 8);
    expect(w.capacity('r')).toBe(32);
    // Slow answers: the window holds two limits' worth.
    const s = w.next();
    if (!s) throw new Error('nothing started');
    w.done(s, { latencyMs: SLOW_ANSWER_MS * 2, failed: false });
    expect(w.capacity('r')).toBe(2 * w.limitOf('r'));
  });

  it('plan claims for busy receivers with room, name the full ones, and discover new ones only when asked', () => {
    const { w, tick } = windows(100, { floor: 1, ceiling: 8 });
    expect(w.claimPlan(false)).toEqual({ rows: 0, full: [] });
    expect(w.claimPlan(true)).toEqual({ rows: 32, full: [] });
    for (let n = 0; n < 32; n++) w.add('full', `x${n}`);
    w.add('roomy', 'y0');
    expect(w.claimPlan(false)).toEqual({ rows: 31, full: ['full'] });
    // The full receiver gets room for a claim's worth (two windows) as its requests end: claim then.
    const started = [];
    for (let s = w.next(); s; s = w.next()) if (s.receiver === 'full') started.push(s);
    const calls = started.map((s) => w.done(s, { latencyMs: 10, failed: false }));
    // Eight ended, 24 wait: less than two windows of room, so not yet.
    expect(calls.filter(Boolean)).toHaveLength(0);
    const more = [];
    for (let s = w.next(); s; s = w.next()) more.push(s);
    const later = more.map((s) => w.done(s, { latencyMs: 10, failed: false }));
    // Once there is room for two windows, one call (and only one) to claim.
    expect(later.filter(Boolean)).toHaveLength(1);
    expect(w.room('full')).toBeGreaterThanOrEqual(2 * w.limitOf('full'));
    // A receiver with nothing held for a long time is forgotten; one with items waiting is not.
    tick(60 * 60_000);
    w.claimPlan(true);
    expect(w.has('roomy')).toBe(true); // its item is in flight
    expect(w.has('full')).toBe(true); // items wait
    w.takeQueued();
    tick(60 * 60_000);
    w.claimPlan(true);
    expect(w.has('full')).toBe(false);
  });

  it('stay within the process’s capacity when planning', () => {
    const { w } = windows(4, { floor: 1, ceiling: 8 });
    expect(w.claimPlan(true).rows).toBeLessThanOrEqual(16);
  });

  it('give a failing receiver fewer in flight than a healthy one', () => {
    const { w, tick } = windows(1000, { floor: 1, ceiling: 256 });
    for (let n = 0; n < 400; n++) {
      w.add('healthy', `h${n}`);
      w.add('failing', `f${n}`);
    }
    const peak = { healthy: 0, failing: 0 };
    for (let round = 0; round < 20; round++) {
      const started = [];
      for (let s = w.next(); s; s = w.next()) started.push(s);
      for (const name of ['healthy', 'failing'] as const)
        peak[name] = Math.max(peak[name], w.inFlightTo(name));
      tick(50);
      for (const s of started) w.done(s, { latencyMs: 50, failed: s.receiver === 'failing' });
      for (let n = 0; n < 100; n++) {
        w.add('healthy', `h${round}-${n}`);
        w.add('failing', `f${round}-${n}`);
      }
    }
    expect(peak.failing).toBe(INITIAL_LIMIT);
    expect(w.limitOf('failing')).toBe(1);
    expect(peak.healthy).toBeGreaterThan(32);
  });
});
