import { type Selectable, sql } from 'kysely';
import { claimStatement } from '../db/claim.js';
import type { Queryable } from '../deps.js';
import { batchStatement, call, placeholders, runCompiled, type Steps, transaction } from './batch-sql.js';
import type { EventDeliveriesTable, EventSubscriptionsTable } from './events.tables.js';

/** The delivery worker's queries: claim, read what to send, record what happened. */
const CLAIMED_COLUMNS = [
  'id',
  'organization_id',
  'subscription_id',
  'event_id',
  'attempts',
  'round_attempts',
] as const;

/** What a worker needs of a claimed delivery; the rest stays in the database. */
export type DeliveryRow = Pick<Selectable<EventDeliveriesTable>, (typeof CLAIMED_COLUMNS)[number]>;

/** A claimed delivery with its event's topic and payload, read by the claim itself. */
export interface ClaimedDelivery extends DeliveryRow {
  topic: string;
  payload: string;
}

/** The subscription a delivery goes to, as it is when its batch is claimed. */
export type DeliveryTarget = Pick<
  Selectable<EventSubscriptionsTable>,
  'organization_id' | 'id' | 'publication_url' | 'encrypt' | 'shared_key' | 'status'
>;

/** The event's columns come with the claim: one statement fewer per batch than reading them after it. */
const CLAIM_RETURNING = [
  ...CLAIMED_COLUMNS,
  sql`(select e.topic from events e where e.id = event_deliveries.event_id) as topic`,
  sql`(select e.payload from events e where e.id = event_deliveries.event_id) as payload`,
];

/** Leases up to `limit` due deliveries to `owner` until `now + leaseMs` (db/claim.ts). */
export async function claimDeliveries(
  db: Queryable,
  owner: string,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const { sql: text, parameters } = claimStatement<ClaimedDelivery>(db, {
    table: 'event_deliveries',
    owner,
    now,
    leaseMs,
    limit,
    returning: CLAIM_RETURNING,
  });
  return runCompiled<ClaimedDelivery>(db, text, parameters);
}

const selectTargets = batchStatement<DeliveryTarget>(
  (n) => sql`
    select organization_id, id, publication_url, encrypt, shared_key, status from event_subscriptions
    where ${sql.join(
      Array.from({ length: n }, () => sql`(organization_id = ${null} and id = ${null})`),
      sql` or `,
    )}`,
);

/** The key of a delivery's subscription in `loadTargets`'s map. */
export const targetKey = (row: DeliveryRow) => `${row.organization_id}\u0000${row.subscription_id}`;

/** The subscriptions of a batch (mostly one or a few), in one query; a deleted one is missing. */
export async function loadTargets(db: Queryable, rows: DeliveryRow[]): Promise<Map<string, DeliveryTarget>> {
  const wanted = new Map<string, DeliveryRow>();
  for (const row of rows) wanted.set(targetKey(row), row);
  if (wanted.size === 0) return new Map();
  const parameters = [...wanted.values()].flatMap((row) => [row.organization_id, row.subscription_id]);
  const found = await selectTargets.run(db, wanted.size, parameters);
  return new Map(found.map((target) => [`${target.organization_id}\u0000${target.id}`, target]));
}

export interface AttemptRecord {
  attemptedAt: string;
  httpStatus: number | null;
  latencyMs: number;
  error: string | null;
  /** The row's next state. */
  status: 'pending' | 'delivered' | 'failed';
  /** When a pending row is next due (a failed one keeps the attempt's time); null once delivered. */
  dueAt: string | null;
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
  return transaction(db, () => recordSteps(owner, items));
}

/** recordAttempts' statements in order; each `yield` hands back that statement's rows. */
function* recordSteps(owner: string, items: RecordedAttempt[]): Steps<number> {
  const recorded = [...(yield* advanceDelivered(owner, items)), ...(yield* advanceFailed(owner, items))];
  if (recorded.length === 0) return 0;
  const attempts: unknown[] = [];
  for (const { row, attempt } of recorded)
    attempts.push(
      row.id,
      row.attempts + 1,
      row.organization_id,
      attempt.attemptedAt,
      attempt.httpStatus,
      attempt.latencyMs,
      attempt.error,
      owner,
    );
  yield call(insertAttempts, recorded.length, attempts);
  yield* countAndDisable(recorded);
  return recorded.length;
}

/** Successes (the usual case), one statement per HTTP status; returns those whose lease was ours. */
function* advanceDelivered(owner: string, items: RecordedAttempt[]): Steps<RecordedAttempt[]> {
  const byStatus = new Map<number | null, RecordedAttempt[]>();
  for (const item of items) {
    if (item.attempt.status !== 'delivered') continue;
    const group = byStatus.get(item.attempt.httpStatus);
    if (group) group.push(item);
    else byStatus.set(item.attempt.httpStatus, [item]);
  }
  const recorded: RecordedAttempt[] = [];
  for (const [httpStatus, group] of byStatus) {
    const parameters: unknown[] = [httpStatus];
    for (const { row, attempt } of group) parameters.push(row.id, attempt.attemptedAt);
    for (const { row } of group) parameters.push(row.id);
    parameters.push(owner);
    const updated = (yield call(markDelivered, group.length, parameters)) as { id: string }[];
    const ids = new Set(updated.map((u) => u.id));
    for (const item of group) if (ids.has(item.row.id)) recorded.push(item);
  }
  return recorded;
}

/** The rest (retry later, or failed), one by one; returns those whose lease was ours. */
function* advanceFailed(owner: string, items: RecordedAttempt[]): Steps<RecordedAttempt[]> {
  const recorded: RecordedAttempt[] = [];
  for (const item of items) {
    const { row, attempt } = item;
    if (attempt.status === 'delivered') continue;
    const parameters = [attempt.status, attempt.dueAt, attempt.httpStatus, attempt.error, row.id, owner];
    const updated = yield call(advanceDelivery, 1, parameters);
    if (updated.length === 1) recorded.push(item);
  }
  return recorded;
}

/** successfulCalls once per recorded success; a 410 disables its subscription. */
function* countAndDisable(recorded: RecordedAttempt[]): Steps<void> {
  const counted = new Map<string, { row: DeliveryRow; count: number }>();
  for (const { row, attempt } of recorded) {
    if (attempt.status !== 'delivered') continue;
    const key = targetKey(row);
    counted.set(key, { row, count: (counted.get(key)?.count ?? 0) + 1 });
  }
  for (const { row, count } of counted.values())
    yield call(countSuccesses, 1, [count, row.organization_id, row.subscription_id]);
  for (const { row, attempt } of recorded) {
    if (!attempt.disableSubscription) continue;
    const reason = `${attempt.attemptedAt}: the receiver answered 410 Gone`;
    yield call(disableSubscription, 1, [reason, row.organization_id, row.subscription_id]);
    const failed = 'the subscription is disabled (the receiver answered 410 Gone)';
    yield call(failPending, 1, [failed, row.organization_id, row.subscription_id]);
  }
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

/** A failed attempt: the row's next state (pending with a due time, or failed), if the lease is ours. */
const advanceDelivery = batchStatement<{ id: string }>(
  () => sql`
    update event_deliveries
    set status = ${null}, attempts = attempts + 1, round_attempts = round_attempts + 1, due_at = ${null},
      lease_owner = null, lease_until = null, last_http_status = ${null}, last_error = ${null},
      delivered_at = null
    where id = ${null} and status = 'pending' and lease_owner = ${null}
    returning id`,
);

const countSuccesses = batchStatement(
  () => sql`
    update event_subscriptions set successful_calls = successful_calls + ${null}
    where organization_id = ${null} and id = ${null}`,
);

const disableSubscription = batchStatement(
  () => sql`
    update event_subscriptions set status = 'disabled', disabled_reason = ${null}
    where organization_id = ${null} and id = ${null}`,
);

/** After a 410: the subscription's other pending deliveries that no worker holds are failed. */
const failPending = batchStatement(
  () => sql`
    update event_deliveries set status = 'failed', last_error = ${null}
    where organization_id = ${null} and subscription_id = ${null} and status = 'pending'
      and lease_owner is null`,
);

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
