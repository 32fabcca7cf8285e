import type { Insertable, Selectable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { EventSubscriptionsTable } from '../../events/events.tables.js';

export type SubscriptionRow = Selectable<EventSubscriptionsTable>;

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

/** Deletes one subscription (or all of the scope's); their deliveries go first, through events/. */
export async function deleteSubscriptions(db: Queryable, scope: Scope, id?: string): Promise<number> {
  let removeSubscriptions = db
    .deleteFrom('event_subscriptions')
    .where('organization_id', '=', scope.organizationId);
  if (id !== undefined) removeSubscriptions = removeSubscriptions.where('id', '=', id);
  const result = await removeSubscriptions.executeTakeFirst();
  return Number(result.numDeletedRows);
}
