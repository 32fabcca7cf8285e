import type { Insertable, Selectable } from 'kysely';
import type { Queryable } from '../../deps.js';
import type { EventDeliveryAttemptsTable, EventSubscriptionsTable } from '../../events/events.tables.js';
import { type Page, pageWindow } from '../../http/paging.js';
import type { Scope } from '../../http/principal.js';

export type SubscriptionRow = Selectable<EventSubscriptionsTable>;
export type AttemptRow = Selectable<EventDeliveryAttemptsTable>;
export interface DeliveryRow {
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

export function findSubscription(
  db: Queryable,
  scope: Scope,
  id: string,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('event_subscriptions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listSubscriptions(db: Queryable, scope: Scope, page: Page): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('event_subscriptions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertSubscription(
  db: Queryable,
  row: Insertable<EventSubscriptionsTable>,
): Promise<void> {
  await db.insertInto('event_subscriptions').values(row).execute();
}

/** The sharedKeys not sealed yet, of every organisation: what sealStoredSharedKeys seals at start. */
export function listUnsealedSharedKeys(
  db: Queryable,
): Promise<{ organization_id: string; id: string; shared_key: string }[]> {
  return db
    .selectFrom('event_subscriptions')
    .select(['organization_id', 'id', 'shared_key'])
    .where('shared_key', 'is not', null)
    .where((eb) => eb(eb.fn('substr', ['shared_key', eb.val(1), eb.val(3)]), '<>', 'v1:'))
    .execute() as Promise<{ organization_id: string; id: string; shared_key: string }[]>;
}

/** Replaces a sharedKey only if it is still `from`: of nodes sealing it at once, one replaces it. */
export async function replaceSharedKey(
  db: Queryable,
  row: { organization_id: string; id: string },
  from: string,
  to: string,
): Promise<number> {
  const result = await db
    .updateTable('event_subscriptions')
    .set({ shared_key: to })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .where('shared_key', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Deletes one subscription (or all of the scope's), with their deliveries and delivery log. */
export async function deleteSubscriptions(db: Queryable, scope: Scope, id?: string): Promise<number> {
  const deliveries = db
    .selectFrom('event_deliveries')
    .select('id')
    .where('organization_id', '=', scope.organizationId);
  const chosen = id === undefined ? deliveries : deliveries.where('subscription_id', '=', id);
  await db.deleteFrom('event_delivery_attempts').where('delivery_id', 'in', chosen).execute();
  let removeDeliveries = db
    .deleteFrom('event_deliveries')
    .where('organization_id', '=', scope.organizationId);
  if (id !== undefined) removeDeliveries = removeDeliveries.where('subscription_id', '=', id);
  await removeDeliveries.execute();
  let removeSubscriptions = db
    .deleteFrom('event_subscriptions')
    .where('organization_id', '=', scope.organizationId);
  if (id !== undefined) removeSubscriptions = removeSubscriptions.where('id', '=', id);
  const result = await removeSubscriptions.executeTakeFirst();
  return Number(result.numDeletedRows);
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
): Promise<DeliveryRow[]> {
  let query = deliveries(db, scope, subscriptionId);
  if (status) query = query.where('d.status', '=', status);
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').$call(pageWindow(page)).execute();
}

export function findDelivery(
  db: Queryable,
  scope: Scope,
  subscriptionId: string,
  deliveryId: string,
): Promise<DeliveryRow | undefined> {
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
