import {
  createQueryId,
  type OperationNode,
  type QueryExecutor,
  type QueryId,
  type RawBuilder,
  sql,
} from 'kysely';
import type { EngineDialect, Write } from './engine-dialect.js';
import { OBJECT_TEXT_BYTES, replaced, widthsOf } from './json-widths.js';

/** This module is the postgres EngineDialect (index.ts `dialectOf`): one named export per difference. */
export const engine = 'postgres';

/** PostgreSQL: rows another worker's claim has locked are skipped, not waited for. */
export const skipLockedRows: EngineDialect['skipLockedRows'] = (query) => query.forUpdate().skipLocked();

export function jsonField(column: string, key: string): RawBuilder<string | null> {
  return sql<string | null>`(${sql.ref(column)}::json ->> ${key})`;
}

export const placeholder = (position: number): string => `$${position}`;

/** The longest value of `key` over `values::jsonb` (numbers as jsonb prints them: never shorter than JS's text). */
function longestValue(key: string, replacement: string | undefined): RawBuilder<unknown> {
  const value = sql`(c.j -> ${key}::text)`;
  const bytes = (text: RawBuilder<unknown>) => sql`octet_length(${replaced(text, replacement)})`;
  return sql`max(CASE jsonb_typeof(${value})
    WHEN 'string' THEN ${bytes(sql`(c.j ->> ${key}::text)`)}
    WHEN 'null' THEN 0
    WHEN 'object' THEN ${OBJECT_TEXT_BYTES}
    WHEN 'array' THEN (SELECT coalesce(sum(${bytes(sql`e`)}), 0) + count(*) - 1 FROM jsonb_array_elements_text(${value}) AS e)
    ELSE octet_length(c.j ->> ${key}::text) END)`;
}

export const longestJsonValues: EngineDialect['longestJsonValues'] = (db, rows, keys, newline) => {
  const columns = keys.map((key, i) => sql`${longestValue(key, newline)} AS ${sql.ref(`w${i}`)}`);
  // Each row's JSON parsed once (OFFSET 0 keeps the planner from inlining the cast per key).
  const select = sql<Record<string, unknown>>`SELECT ${sql.join(columns)}
    FROM (${rows}) AS r CROSS JOIN LATERAL (SELECT r."values"::jsonb AS j OFFSET 0) AS c`;
  return db.transaction().execute(async (trx) => {
    // The many expressions make the planner JIT-compile the query: ~2 s, more than 20,000 rows take.
    await sql`SET LOCAL jit = off`.execute(trx);
    const { rows: result } = await select.execute(trx);
    return widthsOf(result[0], keys.length);
  });
};

export const lockKeys: EngineDialect['lockKeys'] = async (trx, lockClass, keys) => {
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock(${lockClass}, hashtext(${key}))`.execute(trx);
  }
};

export const shareKeys: EngineDialect['shareKeys'] = async (trx, lockClass, keys) => {
  for (const key of [...new Set(keys)].sort()) {
    await sql`select pg_advisory_xact_lock_shared(${lockClass}, hashtext(${key}))`.execute(trx);
  }
};

export const createSequence: EngineDialect['createSequence'] = async (db, name, after) => {
  await sql`create sequence ${sql.id(name)} start with ${sql.lit(after + 1)}`.execute(db);
};

export const dropSequence: EngineDialect['dropSequence'] = async (db, name) => {
  await sql`drop sequence ${sql.id(name)}`.execute(db);
};

export const nextSequenceValues: EngineDialect['nextSequenceValues'] = async (db, name, count) => {
  // Other callers may draw between these calls: the numbers grow but need not be consecutive.
  const { rows } = await sql<{
    value: string;
  }>`select nextval(${name}) as value from generate_series(1, ${count})`.execute(db);
  return rows.map((row) => Number(row.value)).sort((a, b) => a - b);
};

export const numberedInsert: EngineDialect['numberedInsert'] = async (db, table, rows, numbered) => {
  const columns = new Set<string>();
  for (const row of rows) for (const key in row) if (row[key] !== undefined) columns.add(key);
  // WITH ORDINALITY numbers the rows as the array holds them, and nextval is evaluated in the ORDER BY's
  // order (the scan's own order already satisfies it; after a sort, PostgreSQL evaluates a volatile output
  // column once sorted), so the sequence's numbers grow in the rows' order.
  const source = sql`json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}) with ordinality`;
  return db
    .insertInto(table)
    .columns([...columns, numbered.column])
    .expression(
      db
        .selectFrom(source.as('r'))
        .select([
          ...[...columns].map((column) => `r.${column}`),
          sql`nextval(${numbered.sequence})`.as(numbered.column),
        ])
        .orderBy(sql.ref('r.ordinality')),
    );
};

/** PostgreSQL binds at most 65,535 values in one statement. */
const MAX_BOUND_VALUES = 65_535;

export const runWrites: EngineDialect['runWrites'] = async (db, writes) => {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await db.executeQuery(writes[0] as Write);
    return;
  }
  // A builder's node has been through the database's plugins, each write as the statement it is.
  const nodes = writes.map((write) => write.toOperationNode());
  await runAsCtes(db.getExecutor(), nodes, createQueryId());
};

/** The writes' nodes as one statement, halved until it binds no more values than PostgreSQL takes. */
async function runAsCtes(executor: QueryExecutor, nodes: readonly OperationNode[], queryId: QueryId) {
  const ctes = nodes.map((node, i) => sql`${sql.id(`w${i}`)} AS (${{ toOperationNode: () => node }})`);
  // Compiled as it is: the plugins have seen each write already, and a second pass would change them twice.
  const compiled = executor.compileQuery(sql`WITH ${sql.join(ctes)} SELECT 1`.toOperationNode(), queryId);
  if (compiled.parameters.length > MAX_BOUND_VALUES && nodes.length > 1) {
    const half = Math.ceil(nodes.length / 2);
    await runAsCtes(executor, nodes.slice(0, half), queryId);
    await runAsCtes(executor, nodes.slice(half), queryId);
    return;
  }
  await executor.executeQuery(compiled);
}

export const binaryType = 'bytea';

export const writeBatchDelayMs = 50;

export const worksOnEventLoop = false;

export const currentSchema: EngineDialect['currentSchema'] = async (db) => {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
};

export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === '23505';
}
