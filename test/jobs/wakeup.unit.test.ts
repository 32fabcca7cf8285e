import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffMs } from '../../src/events/retry.js';
import { backoffDelayMs, Wakeup } from '../../src/workers.js';

/** Issue 18 item 6: the one wake-up and the one back-off of the job and delivery workers. */
describe('Wakeup', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settled = (promise: Promise<void>) => {
    let done = false;
    promise.then(() => {
      done = true;
    });
    return () => done;
  };

  it('waits for the poll interval when nothing wakes it', async () => {
    const wakeup = new Wakeup();
    const done = settled(wakeup.wait(1000));
    await vi.advanceTimersByTimeAsync(999);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done()).toBe(true);
  });

  it('ends a wait at once when woken', async () => {
    const wakeup = new Wakeup();
    const done = settled(wakeup.wait(60_000));
    wakeup.wake();
    await vi.advanceTimersByTimeAsync(0);
    expect(done()).toBe(true);
  });

  it('keeps a wake that came while the loop was busy, once; clear() forgets it', async () => {
    const wakeup = new Wakeup();
    wakeup.wake();
    const first = settled(wakeup.wait(60_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);
    const second = settled(wakeup.wait(60_000));
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe(false); // the wake was used up
    await vi.advanceTimersByTimeAsync(60_000);
    wakeup.wake();
    wakeup.clear();
    const third = settled(wakeup.wait(500));
    await vi.advanceTimersByTimeAsync(499);
    expect(third()).toBe(false);
  });
});

describe('backoffDelayMs', () => {
  const backoff = { baseMs: 1000, factor: 2, capMs: 10_000, jitter: 0.25 };

  it('grows exponentially from the base and stops at the cap', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelayMs(n, backoff, middle))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000,
    ]);
  });

  it('draws within the jitter either way', () => {
    expect(backoffDelayMs(2, backoff, () => 0)).toBe(1500);
    expect(backoffDelayMs(2, backoff, () => 1)).toBe(2500);
  });

  it('is the delivery schedule too: about 1, 3, 9 minutes', () => {
    expect([1, 2, 3].map((n) => backoffMs(n, () => 0.5))).toEqual([60_000, 180_000, 540_000]);
  });
});
