import { describe, expect, it } from 'vitest';
import { backoffMs, decide, MAX_ATTEMPTS, retryAfterMs } from './retry.js';

const now = new Date('2026-01-01T00:00:00Z');
const HOUR = 3600_000;

describe('the retry schedule', () => {
  it('makes at least 8 attempts spanning at least 24 hours, even with the jitter at its lowest', () => {
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(8);
    let lowest = 0;
    for (let failed = 1; failed < MAX_ATTEMPTS; failed++) lowest += backoffMs(failed, () => 0);
    expect(lowest).toBeGreaterThanOrEqual(24 * HOUR);
  });

  it('grows exponentially up to a cap, with jitter of ±10 %', () => {
    const middle = (n: number) => backoffMs(n, () => 0.5);
    expect(middle(1)).toBe(60_000);
    expect(middle(2)).toBe(180_000);
    expect(middle(3)).toBe(540_000);
    expect(middle(8)).toBe(12 * HOUR);
    expect(backoffMs(1, () => 0)).toBe(54_000);
    expect(backoffMs(1, () => 1)).toBe(66_000);
  });

  it('succeeds on 2xx, stops on 410, gives up after the last attempt, retries anything else', () => {
    expect(decide({ status: 200 }, 1, now).kind).toBe('delivered');
    expect(decide({ status: 204 }, 9, now).kind).toBe('delivered');
    expect(decide({ status: 410 }, 1, now).kind).toBe('gone');
    expect(decide({ status: 500 }, MAX_ATTEMPTS, now).kind).toBe('give-up');
    for (const status of [undefined, 301, 400, 404, 500, 502])
      expect(decide({ status }, 1, now).kind).toBe('retry');
  });

  it('honours Retry-After on 429 and 503 only, in seconds or as an HTTP date', () => {
    expect(decide({ status: 429, retryAfter: '30' }, 1, now)).toEqual({ kind: 'retry', delayMs: 30_000 });
    const date = new Date(now.getTime() + 2 * HOUR).toUTCString();
    expect(decide({ status: 503, retryAfter: date }, 1, now)).toEqual({ kind: 'retry', delayMs: 2 * HOUR });
    expect(decide({ status: 500, retryAfter: '30' }, 1, now, () => 0.5)).toEqual({
      kind: 'retry',
      delayMs: 60_000,
    });
    expect(decide({ status: 429, retryAfter: 'soon' }, 1, now, () => 0.5)).toEqual({
      kind: 'retry',
      delayMs: 60_000,
    });
    expect(retryAfterMs('9999999', now)).toBe(24 * HOUR);
    expect(retryAfterMs(new Date(0).toUTCString(), now)).toBe(0);
  });
});
