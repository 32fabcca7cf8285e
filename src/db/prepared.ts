import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * A query built and compiled once per database, then run with fresh parameters: for the few queries on
 * every request's path (token lookup, record by id), where Kysely's building and compiling cost more
 * than SQLite's execution. `parameters` are positional, in the order the builder's values appear.
 */
export function preparedQuery<Row>(build: (db: Kysely<Database>) => Compilable<Row>) {
  const compiledByDb = new WeakMap<Kysely<Database>, CompiledQuery<Row>>();
  return async (db: Kysely<Database>, parameters: readonly unknown[]): Promise<Row[]> => {
    let compiled = compiledByDb.get(db);
    if (!compiled) {
      compiled = build(db).compile();
      if (compiled.parameters.length !== parameters.length) {
        throw new Error(
          `prepared query takes ${compiled.parameters.length} parameters, got ${parameters.length}`,
        );
      }
      compiledByDb.set(db, compiled);
    }
    const result = await db.executeQuery<Row>({ ...compiled, parameters });
    return result.rows;
  };
}
