import { type RawBuilder, sql } from 'kysely';
import type { EngineDialect } from './engine-dialect.js';
import { OBJECT_TEXT_BYTES, replaced, widthsOf } from './json-widths.js';

/** This module is the sqlite EngineDialect (index.ts `dialectOf`): one named export per difference. */
export const engine = 'sqlite';

/** SQLite: one writer at a time, so a claim's UPDATE is exclusive already and there are no row locks to skip. */
export const skipLockedRows: EngineDialect['skipLockedRows'] = (query) => query;

export function jsonField(column: string, key: string): RawBuilder<string | null> {
  return sql<string | null>`json_extract(${sql.ref(column)}, ${`$."${key}"`})`;
}

export const placeholder = (_position: number): string => '?';

/**
 * The longest value of `key`: json_type picks the case; a number's length is that of its JSON text
 * (`->`), which CAST would round to 15 digits. A key no row has measures 0.
 */
function longestValue(key: string, replacement: string | undefined): RawBuilder<unknown> {
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

export const longestJsonValues: EngineDialect['longestJsonValues'] = async (db, rows, keys, newline) => {
  const columns = keys.map((key, i) => sql`${longestValue(key, newline)} AS ${sql.ref(`w${i}`)}`);
  const { rows: result } = await sql<
    Record<string, unknown>
  >`SELECT ${sql.join(columns)} FROM (${rows}) AS r`.execute(db);
  return widthsOf(result[0], keys.length);
};

export const lockKeys: EngineDialect['lockKeys'] = async () => {};

export const shareKeys: EngineDialect['shareKeys'] = async () => {};

export const createSequence: EngineDialect['createSequence'] = async (db, name, after) => {
  await sql`create table if not exists sequences (name text primary key, value integer not null)`.execute(db);
  await sql`insert into sequences (name, value) values (${name}, ${after})`.execute(db);
};

export const dropSequence: EngineDialect['dropSequence'] = async (db, name) => {
  await sql`delete from sequences where name = ${name}`.execute(db);
};

export const nextSequenceValues: EngineDialect['nextSequenceValues'] = async (db, name, count) => {
  const { rows } = await sql<{
    value: number;
  }>`update sequences set value = value + ${count} where name = ${name} returning value`.execute(db);
  const last = rows[0]?.value;
  if (last === undefined) throw new Error(`no sequence ${name}`);
  // One write transaction at a time: the block below the new value is this caller's alone.
  return Array.from({ length: count }, (_, i) => Number(last) - count + 1 + i);
};

export const numberedInsert: EngineDialect['numberedInsert'] = async (db, table, rows, numbered) => {
  const numbers = await nextSequenceValues(db, numbered.sequence, rows.length);
  return db.insertInto(table).values(rows.map((row, i) => ({ ...row, [numbered.column]: numbers[i] })));
};

/** In-process, a statement is no round trip: the writes run one after another. */
export const runWrites: EngineDialect['runWrites'] = async (db, writes) => {
  for (const write of writes) await db.executeQuery(write);
};

export const binaryType = 'blob';

export const writeBatchDelayMs = 10;

export const worksOnEventLoop = true;

export const currentSchema: EngineDialect['currentSchema'] = async () => undefined;

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
