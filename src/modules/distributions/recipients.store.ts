import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { DistributionRecipientsTable } from './distributions.tables.js';

export type RecipientRow = Selectable<DistributionRecipientsTable>;

/** Adds recipients; one already there (a collection resumed after a crash) is left as it is. */
export async function insertRecipients(
  db: Queryable,
  rows: Insertable<DistributionRecipientsTable>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('distribution_recipients')
    .values(rows)
    .onConflict((oc) => oc.columns(['distribution_id', 'contact_id']).doNothing())
    .execute();
}

function ofDistribution(db: Queryable, scope: Scope, distributionId: string) {
  return db
    .updateTable('distribution_recipients')
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId);
}

/**
 * Rows left `sending` by an attempt that is gone (a crash, a lost lease) go back to `pending`. Such a row
 * never had its message completed: the final dot is sent only after the row is `sent` (mail-sender.ts).
 */
export async function releaseSending(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  owner: string,
): Promise<number> {
  const result = await ofDistribution(db, scope, distributionId)
    .set({ state: 'pending', sending_owner: null })
    .where('state', '=', 'sending')
    .where((eb) => eb.or([eb('sending_owner', 'is', null), eb('sending_owner', '!=', owner)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Pending recipients due by `now`, oldest first. */
export function listDue(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  now: string,
  limit: number,
): Promise<RecipientRow[]> {
  return db
    .selectFrom('distribution_recipients')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .where('state', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('contact_id')
    .limit(limit)
    .execute();
}

/** Changes one recipient when it is in state `from` (and held by `owner`, when given); answers 1 or 0. */
export async function updateRecipient(
  db: Queryable,
  scope: Scope,
  key: { distributionId: string; contactId: string },
  changes: Updateable<DistributionRecipientsTable>,
  guard: { from?: string; owner?: string } = {},
): Promise<number> {
  let query = ofDistribution(db, scope, key.distributionId)
    .set(changes)
    .where('contact_id', '=', key.contactId);
  if (guard.from !== undefined) query = query.where('state', '=', guard.from);
  if (guard.owner !== undefined) query = query.where('sending_owner', '=', guard.owner);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every recipient still `pending` becomes `canceled` (a canceled distribution). */
export async function cancelPending(db: Queryable, scope: Scope, distributionId: string): Promise<void> {
  await ofDistribution(db, scope, distributionId)
    .set({ state: 'canceled', reason: 'The distribution was canceled.' })
    .where('state', '=', 'pending')
    .execute();
}

/** Recipients per state, and how many opened their message. */
export async function countStates(
  db: Queryable,
  scope: Scope,
  distributionId: string,
): Promise<{ byState: Map<string, number>; opened: number }> {
  const rows = await db
    .selectFrom('distribution_recipients')
    .select((eb) => [
      'state',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.count<number | string>('opened_at').as('opened'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .groupBy('state')
    .execute();
  return {
    byState: new Map(rows.map((row) => [row.state, Number(row.n)])),
    opened: rows.reduce((sum, row) => sum + Number(row.opened), 0),
  };
}

/** When the first pending recipient is due; undefined when none is pending. */
export async function nextDue(
  db: Queryable,
  scope: Scope,
  distributionId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('distribution_recipients')
    .select((eb) => eb.fn.min('next_attempt_at').as('due'))
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return row?.due ?? undefined;
}

/** One page of recipients, in contact id order. */
export function listRecipients(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  page: Page,
): Promise<RecipientRow[]> {
  return db
    .selectFrom('distribution_recipients')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .orderBy('contact_id')
    .$call(pageWindow(page))
    .execute();
}

/** A batch of the recipients in `states`, after `after` in contact id order (follow-ups read their parent's). */
export function listRecipientsAfter(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  states: readonly string[],
  after: string | undefined,
  limit: number,
): Promise<RecipientRow[]> {
  let query = db
    .selectFrom('distribution_recipients')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId)
    .where('state', 'in', states);
  if (after !== undefined) query = query.where('contact_id', '>', after);
  return query.orderBy('contact_id').limit(limit).execute();
}

/** Contact ids of recipients, in batches of `limit` after `after` (stats of a follow-up). */
export async function listContactIds(
  db: Queryable,
  scope: Scope,
  distributionId: string,
  after: string | undefined,
  limit: number,
): Promise<string[]> {
  let query = db
    .selectFrom('distribution_recipients')
    .select('contact_id')
    .where('organization_id', '=', scope.organizationId)
    .where('distribution_id', '=', distributionId);
  if (after !== undefined) query = query.where('contact_id', '>', after);
  const rows = await query.orderBy('contact_id').limit(limit).execute();
  return rows.map((row) => row.contact_id);
}

/** By the hash of the recipient's token alone: an opt-out or open-tracking link carries nothing else. */
export function findByTokenHash(db: Queryable, tokenHash: string): Promise<RecipientRow | undefined> {
  return db
    .selectFrom('distribution_recipients')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks the message opened the first time its image is fetched. */
export async function setOpened(db: Queryable, tokenHash: string, at: string): Promise<void> {
  await db
    .updateTable('distribution_recipients')
    .set({ opened_at: at })
    .where('token_hash', '=', tokenHash)
    .where('opened_at', 'is', null)
    .execute();
}
