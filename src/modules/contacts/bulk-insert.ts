import { CompiledQuery } from 'kysely';
import { dialectOf, type EngineDialect } from '../../db/dialect/index.js';
import type { Queryable } from '../../deps.js';

const texts = new Map<string, string>();
const MAX_TEXTS = 64;

/**
 * A multi-row INSERT sent as SQL text and parameters. Building Kysely's query tree for 1,000 rows of 15
 * columns costs more time (and garbage) than SQLite takes to write them, and an import of a million
 * contacts does it a thousand times. The text for one shape of batch is made once. Table, column names
 * and `tail` (an ON CONFLICT clause) are constants of the calling store, never input.
 */
export async function insertMany(
  db: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly unknown[][],
  tail = '',
): Promise<void> {
  if (rows.length === 0) return;
  const dialect = dialectOf(db);
  const key = `${dialect.engine}|${table}|${columns.join(',')}|${rows.length}|${tail}`;
  let text = texts.get(key);
  if (text === undefined) {
    text = insertText(dialect, table, columns, rows.length, tail);
    if (texts.size >= MAX_TEXTS) texts.delete(texts.keys().next().value as string);
    texts.set(key, text);
  }
  await db.executeQuery(CompiledQuery.raw(text, rows.flat()));
}

/** PostgreSQL numbers its placeholders (`$1`), SQLite takes `?`: the dialect names each. */
function insertText(
  dialect: EngineDialect,
  table: string,
  columns: readonly string[],
  count: number,
  tail: string,
) {
  let n = 0;
  const row = () => `(${columns.map(() => dialect.placeholder(++n)).join(', ')})`;
  const values = Array.from({ length: count }, row).join(', ');
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${values} ${tail}`.trim();
}
