/**
 * What a send's outcome does to its recipient (decision 0009). Pure, so the unit test walks every case.
 *
 * - accepted: `sent` (already recorded before the final dot; nothing more to write).
 * - a 5xx refusal of the recipient (RCPT): `bounced`, and the contact is marked bounced.
 * - a 5xx refusal of the message after its data: `failed` (the server will not take this message).
 * - a 4xx refusal, or no answer before the record: back to `pending`, due after a back-off; `failed`
 *   once the attempts are used up.
 * - no answer after the record (the connection died after the final dot): stays `sent`. The server
 *   may or may not have the message; sending it again could make a second copy, so it is not.
 */
import { type Backoff, backoffDelayMs } from '../../workers.js';
import type { SendOutcome } from './mail-sender.js';

/** A temporary refusal is tried again after about 1, 2, 4 ... min (at most 1 h): eight tries in all. */
export const RETRY_BACKOFF: Backoff = { baseMs: 60_000, factor: 2, capMs: 3_600_000, jitter: 0.1 };
export const MAX_SEND_ATTEMPTS = 8;

export type Verdict =
  | { state: 'sent'; reason: string | null }
  | { state: 'bounced'; reason: string; markContactBounced: true }
  | { state: 'failed'; reason: string }
  | { state: 'pending'; reason: string; retryAt: Date }
  /** Nothing to write: this attempt no longer holds the recipient. */
  | { state: 'none' };

export function verdictOf(outcome: SendOutcome, attempts: number, now: Date, random = Math.random): Verdict {
  switch (outcome.kind) {
    case 'sent':
      return { state: 'sent', reason: null };
    case 'abandoned':
      return { state: 'none' };
    case 'refused': {
      const reason = `${outcome.code} ${outcome.response}`.slice(0, 500);
      if (outcome.code >= 500)
        return outcome.stage === 'envelope'
          ? { state: 'bounced', reason, markContactBounced: true }
          : { state: 'failed', reason };
      return retryOrFail(reason, attempts, now, random);
    }
    case 'error':
      if (outcome.committed)
        return {
          state: 'sent',
          reason: `No answer after the message was sent: ${outcome.message}`.slice(0, 500),
        };
      return retryOrFail(outcome.message.slice(0, 500), attempts, now, random);
  }
}

function retryOrFail(reason: string, attempts: number, now: Date, random: () => number): Verdict {
  if (attempts >= MAX_SEND_ATTEMPTS)
    return { state: 'failed', reason: `Gave up after ${attempts} tries: ${reason}` };
  return {
    state: 'pending',
    reason,
    retryAt: new Date(now.getTime() + backoffDelayMs(attempts, RETRY_BACKOFF, random)),
  };
}
