import type { Scope } from '../db/scope.js';
import type { Queryable } from '../deps.js';
import { randomAlphanumeric } from '../http/ids.js';
import { isEventTopic, topicMatches } from './topics.js';

/** Event ids are the `webhook-id` of every delivery of the event: stable across retries. */
export const newEventId = () => `EV_${randomAlphanumeric(15)}`;
export const newDeliveryId = () => `DL_${randomAlphanumeric(15)}`;

/**
 * A best-effort nudge for delivery workers in this process (the default `fieldwork serve` runs the API and
 * the workers together): a few milliseconds after an event is recorded, when its transaction has most
 * likely committed, they look for due deliveries instead of waiting for their next poll; a commit that
 * lands later is caught by the looks a nudged worker takes at doubling intervals (delivery-worker.ts).
 * Workers in other processes rely on polling alone.
 */
const NUDGE_DELAY_MS = 5;
const nudgeListeners = new Set<() => void>();
let nudgeTimer: NodeJS.Timeout | undefined;

export function onEventRecorded(listener: () => void): () => void {
  nudgeListeners.add(listener);
  return () => nudgeListeners.delete(listener);
}

function nudgeWorkers(): void {
  if (nudgeListeners.size === 0 || nudgeTimer) return;
  nudgeTimer = setTimeout(() => {
    nudgeTimer = undefined;
    for (const listener of nudgeListeners) listener();
  }, NUDGE_DELAY_MS);
  nudgeTimer.unref();
}

/**
 * The one way to emit an event (DESIGN.md "Events: the transactional outbox"). Call it with the
 * transaction that makes the change: the event and one delivery per matching active subscription are
 * written in that transaction, so no commit means no event, and a commit means the event will be
 * delivered even if the process dies a moment later. `payload` holds spec part 6's PascalCase attributes;
 * `BrandID` is added when the message is built. `now` comes from the caller's clock (deps.clock), so an
 * injected clock schedules the first attempt. Returns the event id.
 */
export async function recordEvent(
  trx: Queryable,
  scope: Scope,
  topic: string,
  payload: Record<string, unknown>,
  now: Date,
): Promise<string> {
  if (!isEventTopic(topic)) throw new Error(`recordEvent: unknown topic ${topic}`);
  const eventId = newEventId();
  const at = now.toISOString();
  await trx
    .insertInto('events')
    .values({
      id: eventId,
      organization_id: scope.organizationId,
      topic,
      payload: JSON.stringify(payload),
      created_at: at,
    })
    .execute();
  const subscriptions = await trx
    .selectFrom('event_subscriptions')
    .select(['id', 'topics'])
    .where('organization_id', '=', scope.organizationId)
    .where('status', '=', 'active')
    .execute();
  const matching = subscriptions.filter((s) => topicMatches(s.topics, topic));
  if (matching.length === 0) return eventId;
  nudgeWorkers();
  await trx
    .insertInto('event_deliveries')
    .values(
      matching.map((s) => ({
        id: newDeliveryId(),
        organization_id: scope.organizationId,
        subscription_id: s.id,
        event_id: eventId,
        status: 'pending',
        attempts: 0,
        round_attempts: 0,
        due_at: at,
        created_at: at,
      })),
    )
    .execute();
  return eventId;
}
