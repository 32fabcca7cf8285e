import { CompiledQuery, type RawBuilder } from 'kysely';
import { isPostgres } from '../db/dialect.js';
import type { Queryable } from '../deps.js';

/**
 * A statement over a list of rows (`id in (...)`, a multi-row insert), compiled by Kysely once per engine
 * and list length, then run with fresh parameters. The delivery worker runs a few of these per batch, and
 * building and compiling them each time cost more than SQLite's work on the rows. `build(n)` writes the
 * statement as a `sql` template over placeholders; the caller passes parameters in the template's order
 * (a `sql` template numbers its values left to right), and a count mismatch throws rather than misbinds.
 */
export function batchStatement<Row>(build: (n: number) => RawBuilder<Row>) {
  const compiled = new Map<string, CompiledQuery<Row>>();
  const MAX_LENGTHS = 256;
  return async (db: Queryable, n: number, parameters: readonly unknown[]): Promise<Row[]> => {
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
    const result = await db.executeQuery<Row>(CompiledQuery.raw(query.sql, parameters as unknown[]));
    return result.rows;
  };
}

/** `n` placeholders for a template, to be bound by position at run time. */
export const placeholders = (n: number, perRow = 1) => Array.from({ length: n * perRow }, () => null);
