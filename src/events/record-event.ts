import { dialectOf, type Write } from '../db/dialect/index.js';
import type { Scope } from '../db/scope.js';
import type { Queryable } from '../deps.js';
import { newIds } from '../http/ids.js';
import { isEventTopic, topicMatches } from './topics.js';

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

/** Delivery rows per INSERT: 9 values each, inside SQLite's 32,766 bound variables. */
const DELIVERIES_PER_INSERT = 1000;

/** One event to record: its topic, spec part 6's PascalCase attributes, and when (the caller's clock). */
export interface NewEvent {
  topic: string;
  payload: Record<string, unknown>;
  now: Date;
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
  const [eventId] = await recordEvents(trx, scope, [{ topic, payload, now }]);
  return eventId as string;
}

/**
 * recordEvent for several events of one organisation made in the same transaction (a batch of recorded
 * responses): the subscriptions read once, then the events' insert and their deliveries' as one round trip
 * (the dialect's runWrites). Returns the event ids, in order.
 */
export async function recordEvents(
  trx: Queryable,
  scope: Scope,
  events: readonly NewEvent[],
): Promise<string[]> {
  const { eventIds, writes } = await eventWrites(trx, scope, events);
  await dialectOf(trx).runWrites(trx, writes);
  return eventIds;
}

/** The organisation's active subscriptions: what an event's deliveries are made for. */
export interface ActiveSubscription {
  id: string;
  topics: string;
}

export function activeSubscriptions(db: Queryable, scope: Scope): Promise<ActiveSubscription[]> {
  return db
    .selectFrom('event_subscriptions')
    .select(['id', 'topics'])
    .where('organization_id', '=', scope.organizationId)
    .where('status', '=', 'active')
    .execute();
}

/**
 * recordEvents without its writes: reads the subscriptions and answers the events' ids and the writes that
 * record them (the events, then their deliveries), for a caller that runs them with its own (recording a
 * response, record-response.ts) in the same transaction. `subscriptions`: the read already under way, when
 * the caller began it beside its transaction (the engine's completion, decision 0012); a subscription made
 * or removed meanwhile is then as if made or removed a moment later.
 */
export async function eventWrites(
  trx: Queryable,
  scope: Scope,
  events: readonly NewEvent[],
  subscriptions?: Promise<ActiveSubscription[]>,
): Promise<{ eventIds: string[]; writes: Write[] }> {
  if (events.length === 0) return { eventIds: [], writes: [] };
  for (const { topic } of events)
    if (!isEventTopic(topic)) throw new Error(`recordEvent: unknown topic ${topic}`);
  // An event's id is the `webhook-id` of every delivery of it: stable across retries. A batch's ids are
  // drawn together (newIds).
  const eventIds = newIds('EV', events.length);
  const rows = events.map(({ topic, payload, now }, i) => ({
    id: eventIds[i] as string,
    organization_id: scope.organizationId,
    topic,
    payload: JSON.stringify(payload),
    created_at: now.toISOString(),
  }));
  const writes: Write[] = [trx.insertInto('events').values(rows)];
  const active = await (subscriptions ?? activeSubscriptions(trx, scope));
  const matched = rows.flatMap((event) =>
    active.filter((s) => topicMatches(s.topics, event.topic)).map((s) => ({ event, s })),
  );
  if (matched.length === 0) return { eventIds, writes };
  const deliveryIds = newIds('DL', matched.length);
  const deliveries = matched.map(({ event, s }, i) => ({
    id: deliveryIds[i] as string,
    organization_id: scope.organizationId,
    subscription_id: s.id,
    event_id: event.id,
    status: 'pending',
    attempts: 0,
    round_attempts: 0,
    due_at: event.created_at,
    created_at: event.created_at,
  }));
  nudgeWorkers();
  for (let i = 0; i < deliveries.length; i += DELIVERIES_PER_INSERT)
    writes.push(trx.insertInto('event_deliveries').values(deliveries.slice(i, i + DELIVERIES_PER_INSERT)));
  return { eventIds, writes };
}
