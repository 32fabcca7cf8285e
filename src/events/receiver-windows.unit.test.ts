import { describe, expect, it } from 'vitest';
import { INITIAL_LIMIT } from './concurrency-limit.js';
import { ReceiverWindows, SLOW_ANSWER_MS } from './receiver-windows.js';

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
