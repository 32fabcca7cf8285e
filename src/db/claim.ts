import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
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
  /**
   * What to return (default all columns): column names, or expressions over the claimed row (a subquery
   * reading what the caller needs next saves it a statement). Building a JS object per column is much of
   * a claim's cost.
   */
  returning?: readonly (string | RawBuilder<unknown>)[];
}

// biome-ignore lint/suspicious/noExplicitAny: generic over tables; callers type the rows they get back
export async function claimDue<Row>(db: Kysely<any>, options: ClaimOptions): Promise<Row[]> {
  return (await db.executeQuery(claimStatement<Row>(db, options))).rows;
}

/**
 * The claim as one compiled statement, for a caller that runs it its own way (the delivery worker's
 * batch-sql). Its text depends only on the engine and the options' names, so it is compiled once per
 * those (compiling cost more than a small claim itself) and bound to fresh values each time.
 */
// biome-ignore lint/suspicious/noExplicitAny: as claimDue
export function claimStatement<Row>(db: Kysely<any>, options: ClaimOptions): CompiledQuery<Row> {
  const names = {
    table: options.table,
    status: options.statusColumn ?? 'status',
    due: options.dueColumn ?? 'due_at',
    lease: options.leaseColumn ?? 'lease_until',
    owner: options.ownerColumn ?? 'lease_owner',
  };
  const now = options.now.toISOString();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs).toISOString();
  // In the order compileClaim's template binds them.
  const values = [options.owner, leaseUntil, options.claimableStatus ?? 'pending', now, now, options.limit];
  const returning = options.returning ?? ALL_COLUMNS;
  let texts = compiledClaims.get(returning);
  if (!texts) {
    texts = new Map();
    compiledClaims.set(returning, texts);
  }
  const key = [isPostgres(db), ...Object.values(names)].join('\u0000');
  let text = texts.get(key);
  if (!text) {
    text = compileClaim(db, names, returning, values);
    texts.set(key, text);
  }
  return CompiledQuery.raw(text, values) as CompiledQuery<Row>;
}

const ALL_COLUMNS: readonly string[] = [];
/** Compiled claim texts by the `returning` list they were made for (callers keep theirs in a constant). */
const compiledClaims = new WeakMap<readonly unknown[], Map<string, string>>();

function compileClaim(
  // biome-ignore lint/suspicious/noExplicitAny: as claimDue
  db: Kysely<any>,
  names: { table: string; status: string; due: string; lease: string; owner: string },
  returning: readonly (string | RawBuilder<unknown>)[],
  values: readonly unknown[],
): string {
  const lock = isPostgres(db) ? sql` for update skip locked` : sql``;
  const id = sql.ref('id');
  const table = sql.table(names.table);
  const columns =
    returning === ALL_COLUMNS
      ? sql`*`
      : sql.join(returning.map((c) => (typeof c === 'string' ? sql.ref(c) : c)));
  const compiled = sql`
    update ${table}
    set ${sql.ref(names.owner)} = ${values[0]}, ${sql.ref(names.lease)} = ${values[1]}
    where ${id} in (
      select ${id} from ${table}
      where ${sql.ref(names.status)} = ${values[2]}
        and ${sql.ref(names.due)} <= ${values[3]}
        and (${sql.ref(names.lease)} is null or ${sql.ref(names.lease)} < ${values[4]})
      order by ${sql.ref(names.due)}, ${id}
      limit ${values[5]}${lock}
    )
    returning ${columns}`.compile(db);
  // The text is reused with other values bound by position: they must be exactly these, in this order.
  if (compiled.parameters.length !== values.length || compiled.parameters.some((v, i) => v !== values[i]))
    throw new Error('compileClaim: the template binds other values than it is given, or in another order');
  return compiled.sql;
}
