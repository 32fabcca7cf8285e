import type { Database as SqliteHandle } from 'better-sqlite3';
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
 * the connection, which better-sqlite3 refuses with an error) it takes the queue. Rows come back as
 * arrays and are named here, which is cheaper than better-sqlite3 building keyed objects.
 */
function sqliteRun<Row>(handle: SqliteHandle, compiled: CompiledQuery<Row>, viaKysely: Run<Row>): Run<Row> {
  const statement = handle.prepare(compiled.sql).raw(true);
  const names = statement.columns().map((column) => column.name);
  const toRow = (values: unknown[]): Row => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row as Row;
  };
  return (parameters) => {
    if (handle.inTransaction) return viaKysely(parameters);
    let rows: unknown[][];
    try {
      rows = statement.all(parameters as unknown[]) as unknown[][];
    } catch {
      // Busy with a streamed query, or a real error: the queue waits its turn or reports it.
      return viaKysely(parameters);
    }
    return Promise.resolve(rows.map(toRow));
  };
}
