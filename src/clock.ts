/** The one source of time, so tests can move it instead of waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to: for tests of expiry and retry schedules. */
export function manualClock(
  start: Date | string = '2026-01-01T00:00:00Z',
): Clock & { advance(ms: number): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms: number) => {
      current += ms;
    },
  };
}

/** ISO 8601 in UTC with a `Z` and whole seconds, as the v3 service writes timestamps. */
export function isoSeconds(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
