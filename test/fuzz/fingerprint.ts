import { createHash } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../src/db/database.js';

/** Per table, a hash of all its rows (the order a query returns them in does not count). */
export type Fingerprint = Map<string, string>;

/**
 * Tables left out: none changes on a refused call (authentication writes nothing, no worker runs here),
 * so only Kysely's own migration bookkeeping, which no call touches, is skipped.
 */
const SKIPPED = new Set(['kysely_migration', 'kysely_migration_lock']);

const TABLES_QUERY = {
  sqlite: sql<{
    name: string;
  }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`,
  postgres: sql<{ name: string }>`select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`,
};

/**
 * Fingerprints of the whole database: every row of every table but the skipped ones. Hashing every row
 * after every call is slow, so a cheap sign of writes comes first and only tables written since the last
 * fingerprint are hashed again (ENGINES below).
 */
export class Fingerprinter {
  private version = new Map<string, string>();
  private readonly hashes = new Map<string, string>();

  private constructor(
    private readonly database: Db,
    private readonly tables: string[],
  ) {}

  static async of(database: Db): Promise<Fingerprinter> {
    const { rows } = await TABLES_QUERY[database.engine].execute(database.db);
    const tables = rows.map((r) => r.name).filter((name) => !SKIPPED.has(name));
    return new Fingerprinter(database, tables.sort());
  }

  async take(): Promise<Fingerprint> {
    const engine = ENGINES[this.database.engine];
    const version = await engine.versions(this.database.db, this.tables);
    const written = this.tables.filter((table) => version.get(table) !== this.version.get(table));
    if (written.length > 0)
      for (const [table, hash] of await engine.hashes(this.database.db, written))
        this.hashes.set(table, hash);
    this.version = version;
    return new Map(this.hashes);
  }
}

type Database = Db['db'];

/**
 * Per engine: a version of each table that moves on every committed write, and a hash of each table's rows.
 * SQLite: the connection's `total_changes()` (one version for all tables: the app has this one connection,
 * so no write escapes it); rows hashed here. PostgreSQL: each table's row count and newest `xmin` (an insert
 * or update commits a row version with a newer transaction id, a delete lowers the count); rows hashed by
 * the server in one query, so only a short row per table travels.
 */
const ENGINES: Record<
  Db['engine'],
  {
    versions(db: Database, tables: string[]): Promise<Map<string, string>>;
    hashes(db: Database, tables: string[]): Promise<Map<string, string>>;
  }
> = {
  sqlite: {
    versions: async (db, tables) => {
      const { rows } = await sql<{ changes: number }>`select total_changes() as changes`.execute(db);
      return new Map(tables.map((table) => [table, String(rows[0]?.changes)]));
    },
    hashes: async (db, tables) =>
      new Map(await Promise.all(tables.map(async (table) => [table, await hashHere(db, table)] as const))),
  },
  postgres: {
    versions: (db, tables) =>
      perTableQuery(
        db,
        tables,
        (table) =>
          sql`count(*) || ':' || coalesce(max(xmin::text::bigint), 0) as value from ${sql.table(table)}`,
      ),
    hashes: (db, tables) =>
      perTableQuery(
        db,
        tables,
        (table) =>
          sql`coalesce(md5(string_agg(md5(r::text), ',' order by md5(r::text))), '') as value from ${sql.table(table)} r`,
      ),
  },
};

/** One query answering `select <value> as value from <table>` for every table, as a map by table name. */
async function perTableQuery(
  db: Database,
  tables: string[],
  valueFrom: (table: string) => RawBuilder<unknown>,
): Promise<Map<string, string>> {
  const selects = tables.map((table) => sql`select ${table}::text as name, ${valueFrom(table)}`);
  const { rows } = await sql<{ name: string; value: string }>`${sql.join(selects, sql` union all `)}`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.name, r.value]));
}

async function hashHere(db: Database, table: string): Promise<string> {
  const { rows } = await sql`select * from ${sql.table(table)}`.execute(db);
  const lines = rows.map((row) => JSON.stringify(row, binaryAsHex)).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** The tables whose rows differ between two fingerprints. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return [...after.keys()].filter((table) => before.get(table) !== after.get(table));
}

function binaryAsHex(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer')
    return Buffer.from((value as { data: number[] }).data).toString('hex');
  return value;
}
