import type { Clock } from '../../src/clock.js';

/**
 * Real time, but never the same millisecond twice: messages list in creation order (created_at, then id),
 * and two created within one millisecond would otherwise come back in id order.
 */
export function tickingClock(): Clock {
  let last = 0;
  return {
    now: () => {
      last = Math.max(Date.now(), last + 1);
      return new Date(last);
    },
  };
}
