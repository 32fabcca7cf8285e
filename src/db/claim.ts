import type { AliasedExpression, Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { dialectOf } from './dialect/index.js';

/**
 * Claiming due work, the one mechanism every worker uses (event deliveries, jobs). A claim is a lease:
 * the row gets an owner and a lease expiry; a worker that dies leaves a lease that runs out, and the row
 * becomes claimable again. On PostgreSQL `FOR UPDATE SKIP LOCKED` lets any number of workers claim at
 * once without taking the same row; SQLite has a single writer, so its UPDATE is already exclusive.
 *
 * Scheduling columns (due, lease) hold `Date.toISOString()` text (always milliseconds and `Z`), so text
 * order is time order on both engines.
 */
export interface ClaimOptions {
  /** A table with the lease columns below; only its `pending` rows are claimed. */
  table: string;
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /**
   * What to return (default all columns): column names, or expressions over the claimed row (a subquery
   * reading what the caller needs next saves it a statement).
   */
  returning?: readonly (string | AliasedExpression<unknown, string>)[];
  /** Due rows to leave alone all the same (the delivery worker: those of receivers that hold enough). */
  except?: (eb: ExpressionBuilder<Claimable, string>) => Expression<SqlBool>;
}

/** The columns every claimable table has; the claim names no other, but may return any. */
interface LeaseColumns {
  id: string;
  status: string;
  due_at: string;
  lease_until: string | null;
  lease_owner: string | null;
}
type Claimable = Record<string, LeaseColumns & Record<string, unknown>>;

/** Leases up to `limit` due rows to `owner` until `now + leaseMs`; returns them as the caller types them. */
// biome-ignore lint/suspicious/noExplicitAny: generic over tables; callers type the rows they get back
export async function claimDue<Row>(db: Kysely<any>, options: ClaimOptions): Promise<Row[]> {
  const leased = db as Kysely<Claimable>;
  const now = options.now.toISOString();
  const { except } = options;
  const dueNow = leased
    .selectFrom(options.table)
    .select('id')
    .where('status', '=', 'pending')
    .where('due_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]));
  const due = (except ? dueNow.where((eb) => eb.not(except(eb))) : dueNow)
    .orderBy('due_at')
    .orderBy('id')
    .limit(options.limit);
  const claim = leased
    .updateTable(options.table)
    .set({
      lease_owner: options.owner,
      lease_until: new Date(options.now.getTime() + options.leaseMs).toISOString(),
    })
    .where('id', 'in', dialectOf(db).skipLockedRows(due));
  const rows = (options.returning
    ? await claim.returning([...options.returning, 'due_at']).execute()
    : await claim.returningAll().execute()) as unknown as LeaseColumns[];
  // UPDATE … RETURNING answers in no particular order on PostgreSQL: hand the rows over in the order they
  // fell due, so a worker that takes them one at a time (a receiver limited to one) keeps that order.
  rows.sort((a, b) => (a.due_at === b.due_at ? compare(a.id, b.id) : compare(a.due_at, b.due_at)));
  return rows as unknown as Row[];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
