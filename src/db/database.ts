import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { isPostgres } from './dialect.js';
import { migrations } from './migrations/index.js';
import type { Database } from './schema.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** A postgres:// URL; absent means the embedded SQLite file. */
  databaseUrl?: string;
  /** Where the SQLite file lives; `:memory:` for a throwaway database. */
  dataDir: string;
  /** PostgreSQL only: put every table in this schema (tests use one schema each). */
  pgSchema?: string;
}

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

// PostgreSQL returns bigint (count(*), sums) as strings; every count we keep fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** The only place that picks the engine. */
export function createDatabase(options: DatabaseOptions): Db {
  const db = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.pgSchema)
    : openSqlite(options.dataDir);
  const engine: Engine = options.databaseUrl ? 'postgres' : 'sqlite';
  return { db, engine, close: () => db.destroy() };
}

function openSqlite(dataDir: string): Kysely<Database> {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, 'fieldwork.db');
  }
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  sqliteHandles.set(db, database);
  return db;
}

const sqliteHandles = new WeakMap<Kysely<Database>, SqliteDatabase.Database>();

/** The SQLite connection under a Kysely instance (not a transaction's): for prepared.ts alone. */
export function sqliteHandleOf(db: Kysely<Database>): SqliteDatabase.Database | undefined {
  return sqliteHandles.get(db);
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; on SQLite preparing costs more than running a small query. Reusing
 * prepared statements by SQL text is safe because Kysely runs one query at a time per connection.
 */
function withStatementCache(database: SqliteDatabase.Database): SqliteDatabase.Database {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = database.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get: (target, property) => {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, target);
      // Native methods must be called on the real object, not on the proxy.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function openPostgres(connectionString: string, schema?: string): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  pool.on('connect', prepareMarkedStatements);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

const PREPARED_MARK = '/* prepared */ ';

/**
 * A statement text PostgreSQL should parse and plan once per connection, then only bind and execute:
 * for the few run many times a second (the delivery worker's claim and recording). Only texts from a
 * bounded set may be marked, since each stays prepared for the connection's life. Elsewhere it is as is.
 */
export function preparedOnPostgres(text: string): string {
  return PREPARED_MARK + text;
}

/** Statement names by marked text: the text decides the name, on every connection. */
const statementNames = new Map<string, string>();

/** Kysely passes text and values to `client.query`; a marked text goes as a statement named by its hash. */
function prepareMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    if (typeof text !== 'string' || !text.startsWith(PREPARED_MARK) || !Array.isArray(rest[0]))
      return query(text, ...rest);
    let name = statementNames.get(text);
    if (!name) {
      name = `fw_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
      statementNames.set(text, name);
    }
    return query({ name, text, values: rest[0] }, ...rest.slice(1));
  };
}

/** Runs every pending migration; throws with the failing migration's error. */
/**
 * Runs every pending migration; throws with the failing migration's error. On PostgreSQL it holds a
 * database-wide advisory lock meanwhile: Kysely's migrator introspects every schema of the database, which
 * fails if a schema is dropped at that moment, and nodes starting together should migrate one at a time.
 * Whoever drops a schema takes the same lock (`SCHEMA_CHANGE_LOCK`).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (!isPostgres(db)) return migrateWith(db);
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
    try {
      return await migrateWith(connection);
    } finally {
      await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(connection);
    }
  });
}

/** The advisory-lock key that serialises migrations and schema drops on one PostgreSQL database. */
export const SCHEMA_CHANGE_LOCK = 4_242_001;

async function migrateWith(db: Kysely<Database>): Promise<string[]> {
  // Kysely looks for its own tables in any schema unless told which; name the one in use, so that
  // several schemas in one PostgreSQL database (one per test file) never see each other's.
  const migrationTableSchema = await currentSchema(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

async function currentSchema(db: Kysely<Database>): Promise<string | undefined> {
  if (!isPostgres(db)) return undefined;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema;
}

export async function isReachable(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** A unique-constraint violation, on either engine: the service turns it into a 409 naming the field. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
