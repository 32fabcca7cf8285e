/**
 * The exports module's `.sav` pre-pass: the dictionary (with each string's width) is written before the
 * first case, so an spss export first asks the database for the longest value of each string column, in
 * UTF-8 bytes, over the same responses the export streams: one aggregate query, one `max` per string
 * column's key. `values` is JSON text on both engines. Each length is that of the text the `.sav` writer
 * writes (exports/formats/sav-writer.ts `stringValue`): strings as they are, numbers and booleans as their
 * JSON text (what `String(value)` gives), arrays joined by `,`, newlines replaced when the export asks.
 * One lookup per key (json_extract / `->`) was measured 2-4x faster than `json_each` over every key.
 */
import { type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.js';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
import { filteredResponses, type ResponseExportFilter } from './responses.store.js';

export interface StringWidthQuery {
  filter: ResponseExportFilter;
  /** The first N responses in recorded order, as the export takes them. */
  limit?: number;
  /** Value keys of the layout's string columns: only these are measured. */
  keys: readonly string[];
  newlineReplacement?: string;
}

const OBJECT_TEXT_BYTES = sql.lit(15); // String({}) is "[object Object]"

/** `text` with CRLF, CR and LF replaced in that order (exact when the replacement has no newline, else longer). */
function replaced(text: RawBuilder<unknown>, replacement: string | undefined): RawBuilder<unknown> {
  if (replacement === undefined) return text;
  return sql`replace(replace(replace(${text}, ${'\r\n'}, ${replacement}), ${'\r'}, ${replacement}), ${'\n'}, ${replacement})`;
}

/**
 * SQLite, the longest value of `key`: json_type picks the case; a number's length is that of its JSON
 * text (`->`), which CAST would round to 15 digits. A key no row has measures 0.
 */
function sqliteMax(key: string, replacement: string | undefined): RawBuilder<unknown> {
  const path = `$.${JSON.stringify(key)}`; // a quoted label, JSON escapes and all
  const bytes = (text: RawBuilder<unknown>) => sql`length(CAST(${replaced(text, replacement)} AS BLOB))`;
  const element = sql`CASE e.type WHEN 'text' THEN ${bytes(sql`e.value`)} WHEN 'null' THEN 0 ELSE length(r."values" -> e.fullkey) END`;
  return sql`max(CASE json_type(r."values", ${path})
    WHEN 'text' THEN ${bytes(sql`json_extract(r."values", ${path})`)}
    WHEN 'integer' THEN length(r."values" -> ${path})
    WHEN 'real' THEN length(r."values" -> ${path})
    WHEN 'true' THEN 4
    WHEN 'false' THEN 5
    WHEN 'object' THEN ${OBJECT_TEXT_BYTES}
    WHEN 'array' THEN (SELECT coalesce(sum(${element}), 0) + count(*) - 1 FROM json_each(r."values", ${path}) AS e)
    ELSE 0 END)`;
}

/** PostgreSQL, the same over `values::jsonb` (numbers as jsonb prints them: never shorter than JS's text). */
function postgresMax(key: string, replacement: string | undefined): RawBuilder<unknown> {
  const value = sql`(c.j -> ${key}::text)`;
  const bytes = (text: RawBuilder<unknown>) => sql`octet_length(${replaced(text, replacement)})`;
  return sql`max(CASE jsonb_typeof(${value})
    WHEN 'string' THEN ${bytes(sql`(c.j ->> ${key}::text)`)}
    WHEN 'null' THEN 0
    WHEN 'object' THEN ${OBJECT_TEXT_BYTES}
    WHEN 'array' THEN (SELECT coalesce(sum(${bytes(sql`e`)}), 0) + count(*) - 1 FROM jsonb_array_elements_text(${value}) AS e)
    ELSE octet_length(c.j ->> ${key}::text) END)`;
}

/** Value key → the longest written value in UTF-8 bytes (0 when no response has it). */
export async function findStringWidths(
  db: Queryable,
  scope: Scope,
  query: StringWidthQuery,
): Promise<Map<string, number>> {
  const keys = [...new Set(query.keys)];
  if (keys.length === 0) return new Map();
  let responses = filteredResponses(db, scope, query.filter).select('values');
  if (query.limit !== undefined) responses = responses.orderBy('seq').limit(query.limit);
  const postgres = isPostgres(db);
  const measure = postgres ? postgresMax : sqliteMax;
  const columns = keys.map((key, i) => sql`${measure(key, query.newlineReplacement)} AS ${sql.ref(`w${i}`)}`);
  // PostgreSQL: parse each row's JSON once (OFFSET 0 keeps the planner from inlining the cast per key).
  const from = postgres
    ? sql`(${responses}) AS r CROSS JOIN LATERAL (SELECT r."values"::jsonb AS j OFFSET 0) AS c`
    : sql`(${responses}) AS r`;
  const select = sql<Record<string, number | string | null>>`SELECT ${sql.join(columns)} FROM ${from}`;
  const { rows } = postgres
    ? await db.transaction().execute(async (trx) => {
        // The many expressions make the planner JIT-compile the query: ~2 s, more than 20,000 rows take.
        await sql`SET LOCAL jit = off`.execute(trx);
        return select.execute(trx);
      })
    : await select.execute(db);
  const row = rows[0] ?? {};
  return new Map(keys.map((key, i) => [key, Math.max(0, Number(row[`w${i}`] ?? 0))]));
}
