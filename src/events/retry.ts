import { type Backoff, backoffDelayMs } from '../workers.js';

/**
 * The retry schedule (ours: the real service documents none, COMPAT.md). Exponential back-off with
 * jitter: about 1 min, 3, 9, 27 min, 1.4 h, 4 h, then 12 h twice; nine attempts in all spanning more than
 * 24 hours even with the jitter at its lowest (the unit test adds it up).
 */
export const MAX_ATTEMPTS = 9;
/** ±10 % jitter: spreads a burst of failures so a recovering receiver is not hit by all of them at once. */
const DELIVERY_BACKOFF: Backoff = { baseMs: 60_000, factor: 3, capMs: 12 * 3600_000, jitter: 0.1 };
/** A Retry-After beyond this is read as this: a receiver cannot park an event for weeks. */
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

/** Delay before the next attempt after the n-th failed one (n counts from 1). */
export function backoffMs(failedAttempts: number, random: () => number = Math.random): number {
  return backoffDelayMs(failedAttempts, DELIVERY_BACKOFF, random);
}

/** `Retry-After` as seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now.getTime();
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

export interface AttemptResult {
  /** The receiver's status; undefined when no answer came (refused, timed out, connection error). */
  status?: number;
  retryAfter?: string;
}

export type Decision =
  | { kind: 'delivered' }
  /** 410 Gone: the receiver wants no more events; the subscription is disabled. */
  | { kind: 'gone' }
  | { kind: 'retry'; delayMs: number }
  | { kind: 'give-up' };

/** What to do after an attempt; `roundAttempts` counts it. */
export function decide(
  result: AttemptResult,
  roundAttempts: number,
  now: Date,
  random: () => number = Math.random,
): Decision {
  const { status } = result;
  if (status !== undefined && status >= 200 && status < 300) return { kind: 'delivered' };
  if (status === 410) return { kind: 'gone' };
  if (roundAttempts >= MAX_ATTEMPTS) return { kind: 'give-up' };
  const asked = status === 429 || status === 503 ? retryAfterMs(result.retryAfter, now) : undefined;
  return { kind: 'retry', delayMs: asked ?? backoffMs(roundAttempts, random) };
}
