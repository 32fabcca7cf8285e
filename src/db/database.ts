import SqliteDatabase from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import pg from 'pg';
import type { Database } from '../tables.js';
import { dialectOf } from './dialect/index.js';
import { migrations } from './migrations/index.js';
import { privateSqliteFile } from './private-files.js';

export type Engine = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** A postgres:// URL; absent means the embedded SQLite file. */
  databaseUrl?: string;
  /** Where the SQLite file lives; `:memory:` for a throwaway database. */
  dataDir: string;
  /** PostgreSQL only: put every table in this schema (tests use one schema each). */
  pgSchema?: string;
  /** PostgreSQL only: shorter limits for tests that take the server away; production keeps the defaults. */
  pgTimeouts?: Partial<PgTimeouts>;
}

export interface Db {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
  /** Where lost connections are reported; stderr until the app hands over its logger. */
  useLog(log: DbLog): void;
}

export interface DbLog {
  warn(details: object, message: string): void;
}

/**
 * How long PostgreSQL may keep a caller waiting (issue 19). A request then fails with 503 FW_SRV_2
 * instead of hanging, and the pool keeps no connection that stopped answering.
 */
export interface PgTimeouts {
  /** Waiting for a pooled connection, or for a new one's handshake. */
  connectMs: number;
  /**
   * Server side: a statement running longer is cancelled (57014). Requests and job steps run short
   * statements (exports read in keyset batches, no cursor held open); migrations run without it.
   */
  statementMs: number;
  /** Server side: a transaction left idle this long is ended with its connection (25P03). */
  idleInTransactionMs: number;
  /**
   * Client side: no answer this long. The only guard against a frozen server (stopped processes, a
   * silent network), which cancels nothing itself; longer than statementMs so the server cancels first.
   */
  queryMs: number;
}

export const DEFAULT_PG_TIMEOUTS: PgTimeouts = {
  connectMs: 5_000,
  statementMs: 30_000,
  idleInTransactionMs: 60_000,
  queryMs: 35_000,
};

// PostgreSQL returns bigint (count(*), sums) as strings; every count we keep fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

/** The only place that picks the engine. */
export function createDatabase(options: DatabaseOptions): Db {
  const log = { current: stderrLog };
  const db = options.databaseUrl
    ? openPostgres(
        { url: options.databaseUrl, schema: options.pgSchema, ...DEFAULT_PG_TIMEOUTS, ...options.pgTimeouts },
        log,
      )
    : openSqlite(options.dataDir);
  const engine: Engine = options.databaseUrl ? 'postgres' : 'sqlite';
  return {
    db,
    engine,
    close: () => db.destroy(),
    useLog: (next) => {
      log.current = next;
    },
  };
}

const stderrLog: DbLog = {
  warn: (details, message) => process.stderr.write(`${JSON.stringify({ ...details, msg: message })}\n`),
};

function openSqlite(dataDir: string): Kysely<Database> {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    file = privateSqliteFile(dataDir);
  }
  const database = new SqliteDatabase(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
  });
  sqliteHandles.set(db, database);
  return db;
}

/**
 * SQLite transactions begin with `BEGIN IMMEDIATE`: each takes the write lock when it begins, waiting for
 * it under busy_timeout. Kysely's `BEGIN` defers the lock to the first write, and in WAL mode a transaction
 * that has read cannot take it once another connection committed after that read: SQLite answers "database
 * is locked" at once, without waiting. The service has one connection, but the CLI's commands (`token
 * rotate`, `users list`) open their own on the same file while it serves, and its workers commit all the
 * time. One connection writes at a time anyway, so taking the lock earlier costs the service nothing.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

const sqliteHandles = new WeakMap<Kysely<Database>, SqliteDatabase.Database>();

/**
 * The SQLite connection under a Kysely instance (not a transaction's), for tests that read SQLite's own
 * counters (test/fuzz). No query of the service runs on it: they all go through Kysely.
 */
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

interface PostgresSettings extends PgTimeouts {
  url: string;
  schema: string | undefined;
}

function openPostgres(settings: PostgresSettings, log: { current: DbLog }): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: 10,
    application_name: 'fieldwork',
    ...(settings.schema ? { options: `-c search_path=${settings.schema}` } : {}),
    connectionTimeoutMillis: settings.connectMs,
    statement_timeout: settings.statementMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionMs,
    query_timeout: settings.queryMs,
  });
  // An idle connection that drops (restart, failover, pg_terminate_backend) is reported here; with no
  // listener, EventEmitter throws and the process exits. The pool has already discarded it.
  pool.on('error', (error) => log.current.warn({ err: error }, 'a pooled PostgreSQL connection was lost'));
  pool.on('connect', (client) => {
    // A checked-out connection that drops between two queries has nobody listening either: its next
    // query fails ("not queryable") and the pool discards it on release. That failure is what counts.
    client.on('error', () => {});
    discardOnReadTimeout(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  postgresSettings.set(db, settings);
  return db;
}

const postgresSettings = new WeakMap<Kysely<Database>, PostgresSettings>();

/**
 * Migrations run on a connection of their own without the statement limits: an index on a large table,
 * or waiting for another node's migrations, may take minutes. Only the connect timeout applies.
 */
async function withoutStatementLimits<T>(
  db: Kysely<Database>,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const settings = postgresSettings.get(db);
  if (!settings) return work(db);
  const unlimited = { ...settings, statementMs: 0, idleInTransactionMs: 0, queryMs: 0 };
  const own = openPostgres(unlimited, { current: stderrLog });
  try {
    return await work(own);
  } finally {
    await own.destroy();
  }
}

/**
 * After pg's query_timeout the query is still under way on the connection and whatever is sent next waits
 * behind it. Ending the client (pg destroys the socket when a query is active) makes the pool discard it
 * on release rather than hand a stuck connection to the next request.
 */
function discardOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (!(result instanceof Promise)) return result;
    return result.catch((error: unknown) => {
      if ((error as Error | undefined)?.message === 'Query read timeout') client.end().catch(() => {});
      throw error;
    });
  };
}

/**
 * Runs every pending migration; throws with the failing migration's error. On PostgreSQL it holds a
 * database-wide advisory lock meanwhile: Kysely's migrator introspects every schema of the database, which
 * fails if a schema is dropped at that moment, and nodes starting together should migrate one at a time.
 * Whoever drops a schema takes the same lock (`SCHEMA_CHANGE_LOCK`).
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  if (!postgresSettings.has(db)) return migrateWith(db);
  return withoutStatementLimits(db, (unlimited) => migrateLocked(unlimited));
}

async function migrateLocked(db: Kysely<Database>): Promise<string[]> {
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
  const migrationTableSchema = await dialectOf(db).currentSchema(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether `select 1` answers within `timeoutMs`: a frozen server answers nothing, and a check must not hang. */
export async function isReachable(db: Kysely<Database>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, false);
  });
  const answered = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A unique-constraint violation, on either engine: the service turns it into a 409 naming the field. */
export { isUniqueViolation } from './dialect/index.js';
