/**
 * One attempt at one delivery (DESIGN.md "Events"): the message built and signed, the POST, and the
 * outcome recorded with the row's next state (retry.ts decides). When and how many attempts run is the
 * delivery worker's (delivery-worker.ts); this file knows nothing of claims or windows.
 */
import type { Deps } from '../deps.js';
import type { AttemptRecorder } from './attempt-recorder.js';
import { buildMessage } from './message.js';
import { abandon, type ClaimedDelivery, type DeliveryTarget } from './outbox.store.js';
import type { Outcome } from './receiver-windows.js';
import { type AttemptResult, type Decision, decide } from './retry.js';
import { openSecret, UnreadableSecretError } from './sealed-secret.js';
import { secretKeyOf } from './secret-key.js';
import type { WebhookClient } from './webhook-client.js';

/** What an attempt needs of the worker that makes it. */
export interface AttemptContext {
  deps: Deps;
  /** The worker, recorded on the attempt. */
  owner: string;
  client: WebhookClient;
  random: () => number;
  recorder: AttemptRecorder;
}

/** Attempts one delivery and records it; returns how the receiver answered, if a request was made. */
export async function attemptDelivery(
  context: AttemptContext,
  row: ClaimedDelivery,
  target: DeliveryTarget | undefined,
): Promise<Outcome | undefined> {
  const { deps } = context;
  if (!target) return undefined; // the subscription was deleted after the claim; its deliveries went with it
  if (target.status !== 'active') {
    await abandon(deps.db, row, context.owner, 'the subscription is disabled');
    return undefined;
  }
  const attemptedAt = deps.clock.now();
  const started = performance.now();
  let result: AttemptResult = {};
  let error: string | null = null;
  /** Whether the receiver had a say: not when the key cannot be opened or the target is refused. */
  let requested = false;
  try {
    // A key this node cannot open (another node's secret key) is a failed attempt the delivery log shows.
    const message = buildMessage({
      eventId: row.event_id,
      brandId: row.organization_id,
      topic: row.topic,
      payload: row.payload,
      sharedKey: target.shared_key === null ? null : openSharedKey(deps, target.shared_key),
      encrypt: target.encrypt === 1,
      sentAt: attemptedAt,
    });
    requested = true;
    result = await context.client.post(target.publication_url, message);
    if (result.status !== undefined && (result.status < 200 || result.status >= 300))
      error = `the receiver answered ${result.status}`;
  } catch (thrown) {
    error = describeFailure(thrown);
    if (error.startsWith('refused:')) requested = false;
  }
  const elapsedMs = performance.now() - started;
  const now = deps.clock.now();
  const next = nextState(decide(result, row.round_attempts + 1, now, context.random), now);
  context.recorder.add({
    row,
    attempt: {
      attemptedAt: attemptedAt.toISOString(),
      httpStatus: result.status ?? null,
      latencyMs: Math.round(elapsedMs),
      error,
      status: next.status,
      dueAt: next.dueAt,
      disableSubscription: next.disableSubscription,
    },
  });
  return requested ? { latencyMs: elapsedMs, failed: receiverFailed(result.status) } : undefined;
}

/** The sharedKey as stored is sealed (sealed-secret.ts); signing and encrypting need it in clear. */
function openSharedKey(deps: Deps, stored: string): string {
  try {
    return openSecret(stored, secretKeyOf(deps.config));
  } catch (error) {
    if (error instanceof UnreadableSecretError)
      throw new Error(`the subscription's sharedKey cannot be read: ${error.message}`);
    throw error;
  }
}

/**
 * What tells a receiver's limit to back off: no answer (timeout, connection refused or reset), 429 or a
 * 5xx. Other answers, 4xx and 3xx included, came from a receiver that kept up.
 */
function receiverFailed(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}

/** The row's next state after an attempt. */
function nextState(decision: Decision, now: Date) {
  switch (decision.kind) {
    case 'delivered':
      return { status: 'delivered' as const, dueAt: null, disableSubscription: false };
    case 'gone':
      return { status: 'failed' as const, dueAt: now.toISOString(), disableSubscription: true };
    case 'give-up':
      return { status: 'failed' as const, dueAt: now.toISOString(), disableSubscription: false };
    case 'retry':
      return {
        status: 'pending' as const,
        dueAt: new Date(now.getTime() + decision.delayMs).toISOString(),
        disableSubscription: false,
      };
  }
}

/** One line for the delivery log: timeouts and refusals said plainly, network errors by their code. */
function describeFailure(thrown: unknown): string {
  const error = thrown as { name?: string; code?: string; message?: string; cause?: unknown };
  if (error.name === 'TimeoutError' || error.code === 'UND_ERR_HEADERS_TIMEOUT')
    return 'no answer in time (timed out)';
  if (error.message?.startsWith('refused:')) return error.message;
  const cause = error.cause as { code?: string; message?: string } | undefined;
  const detail = cause?.message ?? error.message ?? String(thrown);
  const code = cause?.code ?? error.code;
  return (code && !detail.includes(code) ? `${code}: ${detail}` : detail).slice(0, 500);
}
