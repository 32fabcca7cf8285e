import type { Database as SqliteHandle, Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { sqliteHandleOf } from './database.js';
import type { Database } from './schema.js';

type Run<Row> = (parameters: readonly unknown[]) => Promise<Row[]>;

/**
 * A query built and compiled once per database, then run with fresh parameters: for the few queries on
 * every request's path (token lookup, record by id), where Kysely's building and compiling cost more
 * than SQLite's execution. `parameters` are positional, in the order the builder's values appear.
 * Only for reads: on SQLite the statement may run beside Kysely's connection queue (see `sqliteRun`).
 */
export function preparedQuery<Row>(build: (db: Kysely<Database>) => Compilable<Row>) {
  const runByDb = new WeakMap<Kysely<Database>, Run<Row>>();
  return (db: Kysely<Database>, parameters: readonly unknown[]): Promise<Row[]> => {
    let run = runByDb.get(db);
    if (!run) {
      run = prepare(db, build(db).compile());
      runByDb.set(db, run);
    }
    return run(parameters);
  };
}

function prepare<Row>(db: Kysely<Database>, compiled: CompiledQuery<Row>): Run<Row> {
  const viaKysely = async (parameters: readonly unknown[]) => {
    if (compiled.parameters.length !== parameters.length) {
      throw new Error(
        `prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}`,
      );
    }
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
  const handle = sqliteHandleOf(db);
  return handle ? sqliteRun(handle, compiled, viaKysely) : viaKysely;
}

/**
 * SQLite has one connection and better-sqlite3 runs a statement synchronously, so queueing a single read
 * behind Kysely's connection lock costs more than the read (a profile of `GET /users/{id}` showed it).
 * Outside a transaction the connection is in autocommit: a read run now sees exactly what it would see
 * through the queue, so it runs at once. Inside someone's transaction (or while a streamed query holds
 * the connection, which better-sqlite3 refuses with an error) it takes the queue.
 */
function sqliteRun<Row>(handle: SqliteHandle, compiled: CompiledQuery<Row>, viaKysely: Run<Row>): Run<Row> {
  return (parameters) => {
    if (handle.inTransaction) return viaKysely(parameters);
    try {
      return Promise.resolve(runOnSqlite<Row>(handle, compiled.sql, parameters));
    } catch {
      // Busy with a streamed query, or a real error: the queue waits its turn or reports it.
      return viaKysely(parameters);
    }
  };
}

/**
 * The SQLite connection under `db` when a statement may run on it at once: a root database (not a
 * transaction's) with no transaction open. A statement run then is atomic and sees what it would see
 * through Kysely's queue, since better-sqlite3 runs it synchronously.
 */
export function freeSqlite(db: Kysely<Database>): SqliteHandle | undefined {
  const handle = sqliteHandleOf(db);
  return handle && !handle.inTransaction ? handle : undefined;
}

/** better-sqlite3 refuses every statement while an iterator (Kysely's streamed query) is open. */
export function isBusy(error: unknown): boolean {
  return error instanceof TypeError && error.message.includes('busy executing a query');
}

interface Prepared {
  statement: Statement;
  /** Column names of a statement that returns rows (its rows come as arrays: cheaper than objects). */
  names: string[] | undefined;
}
const preparedByHandle = new WeakMap<SqliteHandle, Map<string, Prepared>>();
/** The hot-path reads, and the delivery worker's statements times the batch lengths each is used at. */
const MAX_PREPARED = 1024;

/**
 * Compiled SQL run straight on the connection (the caller has made sure it may: `freeSqlite`), each text
 * prepared once. Rows come back as arrays and are named here, which is cheaper than better-sqlite3
 * building keyed objects; a statement that returns no rows answers `[]`.
 */
export function runOnSqlite<Row>(handle: SqliteHandle, sql: string, parameters: readonly unknown[]): Row[] {
  let cache = preparedByHandle.get(handle);
  if (!cache) {
    cache = new Map();
    preparedByHandle.set(handle, cache);
  }
  let prepared = cache.get(sql);
  if (!prepared) {
    const statement = handle.prepare(sql);
    const names = statement.reader ? statement.columns().map((c) => c.name) : undefined;
    if (names) statement.raw(true);
    prepared = { statement, names };
    if (cache.size >= MAX_PREPARED) cache.clear();
    cache.set(sql, prepared);
  }
  const { statement, names } = prepared;
  if (!names) {
    statement.run(parameters as unknown[]);
    return [];
  }
  const rows = statement.all(parameters as unknown[]) as unknown[][];
  const named = new Array<Row>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const values = rows[r] as unknown[];
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    named[r] = row as Row;
  }
  return named;
}
