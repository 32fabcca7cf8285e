import { type Selectable, sql } from 'kysely';
import { claimDue } from '../db/claim.js';
import type { Queryable } from '../deps.js';
import { batchStatement, placeholders } from './batch-sql.js';
import type { EventDeliveriesTable } from './events.tables.js';

/** The delivery worker's queries: claim, read what to send, record what happened. */
const CLAIMED_COLUMNS = [
  'id',
  'organization_id',
  'subscription_id',
  'event_id',
  'attempts',
  'round_attempts',
  'lease_until',
] as const;

/** What a worker needs of a claimed delivery; the rest stays in the database. */
export type DeliveryRow = Pick<Selectable<EventDeliveriesTable>, (typeof CLAIMED_COLUMNS)[number]>;

export interface DeliveryContext {
  delivery_id: string;
  event_id: string;
  topic: string;
  payload: string;
  publication_url: string;
  encrypt: number;
  shared_key: string | null;
  subscription_status: string;
}

export function claimDeliveries(
  db: Queryable,
  owner: string,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<DeliveryRow[]> {
  return claimDue<DeliveryRow>(db, {
    table: 'event_deliveries',
    owner,
    now,
    leaseMs,
    limit,
    returning: CLAIMED_COLUMNS,
  });
}

const selectContexts = batchStatement<DeliveryContext>(
  (n) => sql`
    select d.id as delivery_id, e.id as event_id, e.topic, e.payload, s.publication_url, s.encrypt,
      s.shared_key, s.status as subscription_status
    from event_deliveries d
    join events e on e.id = d.event_id
    join event_subscriptions s on s.organization_id = d.organization_id and s.id = d.subscription_id
    where d.id in (${sql.join(placeholders(n))})`,
);

/** The event and subscription behind each claimed delivery, in one query. */
export async function loadContexts(
  db: Queryable,
  rows: DeliveryRow[],
): Promise<Map<string, DeliveryContext>> {
  if (rows.length === 0) return new Map();
  const found = await selectContexts(
    db,
    rows.length,
    rows.map((row) => row.id),
  );
  return new Map(found.map((context) => [context.delivery_id, context]));
}

export interface AttemptRecord {
  attemptedAt: string;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  /** The row's next state. */
  status: 'pending' | 'delivered' | 'failed';
  dueAt: string;
  /** 410 Gone: disable the subscription and fail its other pending deliveries. */
  disableSubscription: boolean;
}

export interface RecordedAttempt {
  row: DeliveryRow;
  attempt: AttemptRecord;
}

/**
 * Records attempts and each delivery's next state, a batch in one transaction (group commit: one lock and
 * one commit for many deliveries), and only for rows the caller still holds the lease of: a worker whose
 * lease ran out (and whose row another worker took) records nothing, so successfulCalls is counted exactly
 * once per delivery. Returns how many were recorded.
 */
export function recordAttempts(db: Queryable, owner: string, items: RecordedAttempt[]): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const recorded: RecordedAttempt[] = [];
    // Successes (the usual case) advance in one statement per HTTP status; the rest one by one.
    const successes = items.filter((i) => i.attempt.status === 'delivered');
    const byStatus = new Map<number | null, RecordedAttempt[]>();
    for (const item of successes) {
      const group = byStatus.get(item.attempt.httpStatus);
      if (group) group.push(item);
      else byStatus.set(item.attempt.httpStatus, [item]);
    }
    for (const group of byStatus.values()) recorded.push(...(await advanceDelivered(trx, owner, group)));
    for (const item of items.filter((i) => i.attempt.status !== 'delivered'))
      if (await advanceDelivery(trx, owner, item)) recorded.push(item);
    if (recorded.length === 0) return 0;
    await insertAttempts(
      trx,
      recorded.length,
      recorded.flatMap(({ row, attempt }) => [
        row.id,
        row.attempts + 1,
        row.organization_id,
        attempt.attemptedAt,
        attempt.httpStatus,
        attempt.latencyMs,
        attempt.error,
        owner,
      ]),
    );
    const counted = new Map<string, { row: DeliveryRow; count: number }>();
    for (const { row, attempt } of recorded) {
      if (attempt.status !== 'delivered') continue;
      const key = `${row.organization_id}\u0000${row.subscription_id}`;
      counted.set(key, { row, count: (counted.get(key)?.count ?? 0) + 1 });
    }
    for (const { row, count } of counted.values()) {
      await subscriptionOf(trx, row)
        .set((eb) => ({ successful_calls: eb('successful_calls', '+', count) }))
        .execute();
    }
    for (const { row, attempt } of recorded.filter((r) => r.attempt.disableSubscription)) {
      await subscriptionOf(trx, row)
        .set({
          status: 'disabled',
          disabled_reason: `${attempt.attemptedAt}: the receiver answered 410 Gone`,
        })
        .execute();
      await failPending(trx, row, 'the subscription is disabled (the receiver answered 410 Gone)');
    }
    return recorded.length;
  });
}

const insertAttempts = batchStatement(
  (n) => sql`
    insert into event_delivery_attempts
      (delivery_id, attempt, organization_id, attempted_at, http_status, latency_ms, error, worker)
    values ${sql.join(Array.from({ length: n }, () => sql`(${sql.join(placeholders(8))})`))}`,
);

/**
 * Marks delivered the rows of a group with one HTTP status, where the lease is still ours. Each row gets
 * its own attempt time, through one CASE. No `status = 'pending'` test: holding the lease implies it
 * (claims lease only pending rows, and every way out of pending clears the lease), and with it SQLite's
 * planner walks the (status, due_at) index over every pending row instead of looking the ids up.
 */
const markDelivered = batchStatement<{ id: string }>(
  (n) => sql`
    update event_deliveries
    set status = 'delivered', attempts = attempts + 1, round_attempts = round_attempts + 1,
      lease_owner = null, lease_until = null, last_http_status = ${null}, last_error = null,
      delivered_at = case id ${sql.join(
        Array.from({ length: n }, () => sql`when ${null} then ${null}`),
        sql` `,
      )} end
    where id in (${sql.join(placeholders(n))}) and lease_owner = ${null}
    returning id`,
);

async function advanceDelivered(trx: Queryable, owner: string, group: RecordedAttempt[]) {
  const first = group[0];
  if (!first) return [];
  const updated = await markDelivered(trx, group.length, [
    first.attempt.httpStatus,
    ...group.flatMap(({ row, attempt }) => [row.id, attempt.attemptedAt]),
    ...group.map(({ row }) => row.id),
    owner,
  ]);
  const ids = new Set(updated.map((u) => u.id));
  return group.filter((i) => ids.has(i.row.id));
}

async function advanceDelivery(trx: Queryable, owner: string, { row, attempt }: RecordedAttempt) {
  const updated = await trx
    .updateTable('event_deliveries')
    .set({
      status: attempt.status,
      attempts: row.attempts + 1,
      round_attempts: row.round_attempts + 1,
      due_at: attempt.dueAt,
      lease_owner: null,
      lease_until: null,
      last_http_status: attempt.httpStatus,
      last_error: attempt.error,
      delivered_at: attempt.status === 'delivered' ? attempt.attemptedAt : null,
    })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

function subscriptionOf(trx: Queryable, row: DeliveryRow) {
  return trx
    .updateTable('event_subscriptions')
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.subscription_id);
}

/** Gives claimed, unsent deliveries back (a worker stopping): claimable again at once. */
export async function releaseDeliveries(db: Queryable, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('event_deliveries')
    .set({ lease_owner: null, lease_until: null })
    .where('id', 'in', ids)
    .where('lease_owner', '=', owner)
    .execute();
}

/** A claimed delivery that will not be sent (its subscription is disabled): failed, with no attempt. */
export async function abandon(db: Queryable, row: DeliveryRow, owner: string, reason: string): Promise<void> {
  await db
    .updateTable('event_deliveries')
    .set({ status: 'failed', lease_owner: null, lease_until: null, last_error: reason })
    .where('id', '=', row.id)
    .where('status', '=', 'pending')
    .where('lease_owner', '=', owner)
    .execute();
}

async function failPending(trx: Queryable, row: DeliveryRow, reason: string): Promise<void> {
  await trx
    .updateTable('event_deliveries')
    .set({ status: 'failed', last_error: reason })
    .where('organization_id', '=', row.organization_id)
    .where('subscription_id', '=', row.subscription_id)
    .where('status', '=', 'pending')
    .where('lease_owner', 'is', null)
    .execute();
}
