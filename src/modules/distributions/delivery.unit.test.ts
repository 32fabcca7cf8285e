import { describe, expect, it } from 'vitest';
import { MAX_SEND_ATTEMPTS, verdictOf } from './delivery.js';

const now = new Date('2026-04-01T09:00:00Z');
const half = () => 0.5;

describe('what a send outcome does to its recipient (decision 0009)', () => {
  it('a 5xx to the recipient bounces it and the contact', () => {
    const verdict = verdictOf(
      { kind: 'refused', code: 550, response: 'No such mailbox', stage: 'envelope' },
      1,
      now,
    );
    expect(verdict).toEqual({ state: 'bounced', reason: '550 No such mailbox', markContactBounced: true });
  });

  it('a 5xx to the message fails it without bouncing the contact', () => {
    const verdict = verdictOf({ kind: 'refused', code: 554, response: 'Spam', stage: 'message' }, 1, now);
    expect(verdict).toEqual({ state: 'failed', reason: '554 Spam' });
  });

  it('a 4xx, or no answer before the record, waits for a growing back-off', () => {
    const first = verdictOf(
      { kind: 'refused', code: 451, response: 'later', stage: 'envelope' },
      1,
      now,
      half,
    );
    const third = verdictOf({ kind: 'error', message: 'ECONNREFUSED', committed: false }, 3, now, half);
    expect(first).toMatchObject({ state: 'pending', retryAt: new Date(now.getTime() + 60_000) });
    expect(third).toMatchObject({ state: 'pending', retryAt: new Date(now.getTime() + 240_000) });
  });

  it('gives up after the last try', () => {
    const verdict = verdictOf(
      { kind: 'refused', code: 421, response: 'busy', stage: 'envelope' },
      MAX_SEND_ATTEMPTS,
      now,
    );
    expect(verdict.state).toBe('failed');
    expect((verdict as { reason: string }).reason).toContain(`after ${MAX_SEND_ATTEMPTS} tries`);
  });

  it('keeps a message whose connection died after the record as sent: never a second copy', () => {
    const verdict = verdictOf({ kind: 'error', message: 'socket hang up', committed: true }, 1, now);
    expect(verdict.state).toBe('sent');
  });

  it('writes nothing for an attempt that lost the recipient', () => {
    expect(verdictOf({ kind: 'abandoned' }, 1, now)).toEqual({ state: 'none' });
  });
});
