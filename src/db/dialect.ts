import { type Kysely, PostgresAdapter, type SelectQueryBuilder } from 'kysely';

/**
 * The engine-specific bits, named once here instead of `if (engine)` scattered through queries
 * (STYLE.md, after Kysely's own dialect overrides): one object per engine.
 */
export interface EngineDialect {
  /**
   * The row selection of a claim (db/claim.ts). PostgreSQL: rows another worker's claim has locked are
   * skipped, not waited for, so any number of workers claim at once without taking the same row.
   */
  skipLockedRows<DB, TB extends keyof DB, O>(
    query: SelectQueryBuilder<DB, TB, O>,
  ): SelectQueryBuilder<DB, TB, O>;
}

const postgres: EngineDialect = {
  skipLockedRows: (query) => query.forUpdate().skipLocked(),
};

const sqlite: EngineDialect = {
  // One writer at a time: the claim's UPDATE is exclusive already, and SQLite has no row locks to skip.
  skipLockedRows: (query) => query,
};

// biome-ignore lint/suspicious/noExplicitAny: works on any database type
export function dialectOf(db: Kysely<any>): EngineDialect {
  return isPostgres(db) ? postgres : sqlite;
}

// biome-ignore lint/suspicious/noExplicitAny: works on any database type
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
