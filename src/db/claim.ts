import { type Kysely, sql } from 'kysely';
import { isPostgres } from './dialect.js';

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
  table: string;
  /** Only rows whose `statusColumn` equals `claimableStatus` are claimed. */
  statusColumn?: string;
  claimableStatus?: string;
  dueColumn?: string;
  leaseColumn?: string;
  ownerColumn?: string;
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** The columns to return (default all): building a JS object per column is much of a claim's cost. */
  returning?: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: generic over tables; callers type the rows they get back
export async function claimDue<Row>(db: Kysely<any>, options: ClaimOptions): Promise<Row[]> {
  const {
    table,
    statusColumn = 'status',
    claimableStatus = 'pending',
    dueColumn = 'due_at',
    leaseColumn = 'lease_until',
    ownerColumn = 'lease_owner',
  } = options;
  const now = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const lock = isPostgres(db) ? sql` for update skip locked` : sql``;
  const id = sql.ref('id');
  const returning = options.returning ? sql.join(options.returning.map((c) => sql.ref(c))) : sql`*`;
  const result = await sql<Row>`
    update ${sql.table(table)}
    set ${sql.ref(ownerColumn)} = ${options.owner}, ${sql.ref(leaseColumn)} = ${leaseUntil}
    where ${id} in (
      select ${id} from ${sql.table(table)}
      where ${sql.ref(statusColumn)} = ${claimableStatus}
        and ${sql.ref(dueColumn)} <= ${now}
        and (${sql.ref(leaseColumn)} is null or ${sql.ref(leaseColumn)} < ${now})
      order by ${sql.ref(dueColumn)}, ${id}
      limit ${options.limit}${lock}
    )
    returning ${returning}`.execute(db);
  return result.rows;
}
