import type { Selectable } from 'kysely';
import { type Page, pageWindow } from '../db/page.js';
import type { Scope } from '../db/scope.js';
import type { Queryable } from '../deps.js';
import type { EventDeliveryAttemptsTable } from './events.tables.js';

/**
 * The outbox as its subscribers' owners see it (issue 18 item 4): the delivery log of a subscription,
 * requeueing, and removal with the subscription. The event-subscriptions module reaches the outbox only
 * through these; the delivery worker's own operations are in outbox.store.ts.
 */
export type AttemptRow = Selectable<EventDeliveryAttemptsTable>;
export interface DeliveryLogRow {
  id: string;
  event_id: string;
  topic: string;
  status: string;
  attempts: number;
  due_at: string;
  lease_until: string | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** Removes the deliveries (and their attempts) of one subscription, or of all of the scope's. */
export async function deleteDeliveriesOf(
  db: Queryable,
  scope: Scope,
  subscriptionId?: string,
): Promise<void> {
  const deliveries = db
    .selectFrom('event_deliveries')
    .select('id')
    .where('organization_id', '=', scope.organizationId);
  const chosen =
    subscriptionId === undefined ? deliveries : deliveries.where('subscription_id', '=', subscriptionId);
  await db.deleteFrom('event_delivery_attempts').where('delivery_id', 'in', chosen).execute();
  let removeDeliveries = db
    .deleteFrom('event_deliveries')
    .where('organization_id', '=', scope.organizationId);
  if (subscriptionId !== undefined)
    removeDeliveries = removeDeliveries.where('subscription_id', '=', subscriptionId);
  await removeDeliveries.execute();
}

function deliveries(db: Queryable, scope: Scope, subscriptionId: string) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.topic',
      'd.status',
      'd.attempts',
      'd.due_at',
      'd.lease_until',
      'd.last_error',
      'd.delivered_at',
      'd.created_at',
    ])
    .where('d.organization_id', '=', scope.organizationId)
    .where('d.subscription_id', '=', subscriptionId);
}

/** The delivery log, newest first. */
export function listDeliveries(
  db: Queryable,
  scope: Scope,
  subscriptionId: string,
  page: Page,
  status?: string,
): Promise<DeliveryLogRow[]> {
  let query = deliveries(db, scope, subscriptionId);
  if (status) query = query.where('d.status', '=', status);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').$call(pageWindow(page)).execute();
}

export function findDelivery(
  db: Queryable,
  scope: Scope,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryLogRow | undefined> {
  return deliveries(db, scope, subscriptionId).where('d.id', '=', deliveryId).executeTakeFirst();
}

export async function listAttempts(
  db: Queryable,
  scope: Scope,
  deliveryIds: string[],
): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('event_delivery_attempts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

/**
 * Makes deliveries due now with a fresh retry budget. Never touches one a worker holds (an unexpired
 * lease): that one is being attempted right now. Returns how many were requeued.
 */
export async function requeueDeliveries(
  db: Queryable,
  scope: Scope,
  subscriptionId: string,
  now: Date,
  which: { deliveryId: string } | { failedSince: string; failedUntil: string },
): Promise<number> {
  const at = now.toISOString();
  let query = db
    .updateTable('event_deliveries')
    .set({ status: 'pending', due_at: at, round_attempts: 0, delivered_at: null })
    .where('organization_id', '=', scope.organizationId)
    .where('subscription_id', '=', subscriptionId)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]));
  query =
    'deliveryId' in which
      ? query.where('id', '=', which.deliveryId)
      : query
          .where('status', '=', 'failed')
          .where('created_at', '>=', which.failedSince)
          .where('created_at', '<=', which.failedUntil);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
