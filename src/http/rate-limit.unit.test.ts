import { describe, expect, it } from 'vitest';
import { manualClock } from '../clock.js';
import { LocalBuckets, limitFor, takeFromBucket, tooManyRequests, WINDOW_MS } from './rate-limit.js';

/** Takes `count` requests from one bucket at one instant; answers the outcomes. */
function takeMany(count: number, limit: number, now: number, start?: number) {
  let tat = start;
  const outcomes = [];
  for (let i = 0; i < count; i++) {
    const outcome = takeFromBucket(tat, now, limit, WINDOW_MS);
    if (outcome.allowed) tat = outcome.tat;
    outcomes.push(outcome);
  }
  return { outcomes, tat };
}

describe('takeFromBucket (GCRA)', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('lets a full minute of 3000 through at once, and refuses the next for one drip (20 ms)', () => {
    const { outcomes } = takeMany(3001, 3000, now);
    expect(outcomes.slice(0, 3000).every((o) => o.allowed)).toBe(true);
    expect(outcomes.map((o) => o.remaining).slice(0, 3)).toEqual([2999, 2998, 2997]);
    expect(outcomes[2999]).toMatchObject({ allowed: true, remaining: 0, resetMs: WINDOW_MS });
    expect(outcomes[3000]).toMatchObject({ allowed: false, remaining: 0, retryMs: 20, resetMs: WINDOW_MS });
  });

  it('drains one request every window / limit: a full bucket takes one more after 2 s at 30 a minute', () => {
    const { tat } = takeMany(30, 30, now);
    expect(takeFromBucket(tat, now + 1_999, 30, WINDOW_MS)).toMatchObject({ allowed: false, retryMs: 1 });
    expect(takeFromBucket(tat, now + 2_000, 30, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('is empty again a minute after it was full, and a past tat counts as empty', () => {
    const { tat } = takeMany(30, 30, now);
    expect(takeFromBucket(tat, now + WINDOW_MS, 30, WINDOW_MS)).toMatchObject({
      allowed: true,
      remaining: 29,
    });
    expect(takeFromBucket((now - 5_000) * 1000, now, 30, WINDOW_MS)).toEqual(
      takeFromBucket(undefined, now, 30, WINDOW_MS),
    );
  });

  it('counts limits that do not divide a minute exactly (7 a minute: 7 pass, the 8th waits)', () => {
    const { outcomes } = takeMany(8, 7, now);
    expect(outcomes.map((o) => o.allowed)).toEqual([true, true, true, true, true, true, true, false]);
    expect(outcomes.map((o) => o.remaining).slice(0, 7)).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(outcomes[7]?.retryMs).toBeCloseTo(WINDOW_MS / 7, 1);
  });

  it('a steady caller at the limit is never refused', () => {
    let tat: number | undefined;
    for (let i = 0; i < 10_000; i++) {
      const outcome = takeFromBucket(tat, now + i * 20, 3000, WINDOW_MS);
      expect(outcome.allowed).toBe(true);
      tat = outcome.tat;
    }
  });
});

describe('LocalBuckets', () => {
  it('keeps one bucket per key, on the clock it is given', async () => {
    const clock = manualClock();
    const buckets = new LocalBuckets(clock);
    for (let i = 0; i < 3; i++) expect((await buckets.take('a:all', 3, WINDOW_MS)).allowed).toBe(true);
    expect(await buckets.take('a:all', 3, WINDOW_MS)).toMatchObject({ allowed: false, retryMs: 20_000 });
    expect((await buckets.take('b:all', 3, WINDOW_MS)).allowed).toBe(true);
    expect((await buckets.take('a:exportStart', 3, WINDOW_MS)).allowed).toBe(true);
    clock.advance(20_000);
    expect(await buckets.take('a:all', 3, WINDOW_MS)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('a refused request takes nothing: the wait does not grow while a client keeps asking', async () => {
    const clock = manualClock();
    const buckets = new LocalBuckets(clock);
    await buckets.take('a:all', 1, WINDOW_MS);
    for (let i = 0; i < 5; i++) expect((await buckets.take('a:all', 1, WINDOW_MS)).retryMs).toBe(WINDOW_MS);
  });
});

describe('limits and the refusal', () => {
  it("gives each class COMPAT.md's limit, never above the organisation's", () => {
    expect(limitFor(undefined, 3000)).toBe(3000);
    expect(limitFor('exportProgress', 3000)).toBe(1000);
    expect(limitFor('eventSubscriptions', 3000)).toBe(120);
    expect(limitFor('exportStart', 3000)).toBe(100);
    expect(limitFor('exportFile', 3000)).toBe(100);
    expect(limitFor('exportProgress', 30)).toBe(30);
  });

  it('answers 429 FW_RATE_1 naming the limit and whole seconds to wait', () => {
    const error = tooManyRequests('exportStart', 100, 600);
    expect(error).toMatchObject({ status: 429, code: 'FW_RATE_1' });
    expect(error.message).toBe(
      'Too many requests: this organization may make 100 response export starts a minute; retry after 1 seconds.',
    );
    expect(tooManyRequests(undefined, 3000, 20_001).message).toContain('3000 calls a minute; retry after 21');
  });
});
