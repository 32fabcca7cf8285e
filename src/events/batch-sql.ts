import { CompiledQuery, type RawBuilder } from 'kysely';
import { preparedOnPostgres } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { freeSqlite, isBusy, runOnSqlite } from '../db/prepared.js';
import type { Queryable } from '../deps.js';

// The delivery worker's statements, compiled once and run many times with fresh parameters. It runs a
// few per batch of deliveries, and Kysely's building, compiling and queueing cost more than SQLite's work
// on the rows, so on SQLite they run straight on the connection (db/prepared.ts, as the hot-path reads do):
// better-sqlite3 is synchronous, so a statement run when no transaction is open there is atomic and sees
// what it would through Kysely's queue. While someone's transaction is open they wait their turn in it.

/**
 * A statement over a list of rows (`id in (...)`, a multi-row insert), compiled once per engine and
 * list length. `build(n)` writes it as a `sql` template over placeholders; the caller passes parameters in
 * the template's order (a `sql` template numbers its values left to right), and a count mismatch throws
 * rather than misbinds.
 */
export interface BatchStatement<Row> {
  run(db: Queryable, n: number, parameters: readonly unknown[]): Row[] | Promise<Row[]>;
  /** The SQL for this engine and length, having checked the parameter count. */
  sqlFor(db: Queryable, n: number, parameters: readonly unknown[]): string;
}

export function batchStatement<Row>(build: (n: number) => RawBuilder<Row>): BatchStatement<Row> {
  const compiled = new Map<string, CompiledQuery<Row>>();
  const MAX_LENGTHS = 256;
  const sqlFor = (db: Queryable, n: number, parameters: readonly unknown[]) => {
    const key = `${isPostgres(db) ? 'pg' : 'sqlite'}:${n}`;
    let query = compiled.get(key);
    if (!query) {
      query = build(n).compile(db);
      if (compiled.size >= MAX_LENGTHS) compiled.clear();
      compiled.set(key, query);
    }
    if (query.parameters.length !== parameters.length)
      throw new Error(
        `batch statement takes ${query.parameters.length} parameters, got ${parameters.length}`,
      );
    return query.sql;
  };
  return { sqlFor, run: (db, n, parameters) => runCompiled(db, sqlFor(db, n, parameters), parameters) };
}

/** One statement of a transaction written as a generator (see `transaction`): it gets the rows back. */
export interface Call {
  statement: BatchStatement<unknown>;
  n: number;
  parameters: readonly unknown[];
}
export type Steps<T> = Generator<Call, T, unknown[]>;
export function call<Row>(statement: BatchStatement<Row>, n: number, parameters: readonly unknown[]): Call {
  return { statement, n, parameters };
}

/**
 * Runs the statements `steps` yields in one transaction, handing each its rows. On a free SQLite
 * connection that is better-sqlite3's synchronous transaction, in which nothing else can run; otherwise
 * (or if that fails, rolled back) a Kysely transaction. The steps are a generator so that one text serves
 * both. All of it commits or none of it.
 */
export async function transaction<T>(db: Queryable, steps: () => Steps<T>): Promise<T> {
  const handle = freeSqlite(db);
  if (handle) {
    try {
      return handle.transaction(() => {
        const run = steps();
        let next = run.next();
        while (!next.done) {
          const { statement, n, parameters } = next.value;
          next = run.next(runOnSqlite(handle, statement.sqlFor(db, n, parameters), parameters));
        }
        return next.value;
      })();
    } catch (error) {
      // Rolled back. A streamed query holds the connection: wait for it in the queue.
      if (!isBusy(error)) throw error;
    }
  }
  return db.transaction().execute(async (trx) => {
    const run = steps();
    let next = run.next();
    while (!next.done) {
      const { statement, n, parameters } = next.value;
      next = run.next(await statement.run(trx, n, parameters));
    }
    return next.value;
  });
}

/** `n` placeholders for a template, to be bound by position at run time. */
export const placeholders = (n: number, perRow = 1) => Array.from({ length: n * perRow }, () => null);

/**
 * Compiled SQL with these parameters: straight on a free SQLite connection, else through Kysely (on
 * PostgreSQL as a statement prepared once per connection: these texts are a bounded set).
 */
export function runCompiled<Row>(
  db: Queryable,
  sql: string,
  parameters: readonly unknown[],
): Row[] | Promise<Row[]> {
  const handle = freeSqlite(db);
  if (handle) {
    try {
      return runOnSqlite<Row>(handle, sql, parameters);
    } catch (error) {
      if (!isBusy(error)) throw error; // else a streamed query holds the connection: wait in the queue
    }
  }
  const text = isPostgres(db) ? preparedOnPostgres(sql) : sql;
  return db.executeQuery<Row>(CompiledQuery.raw(text, parameters as unknown[])).then((r) => r.rows);
}
