import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * The engine-specific bits, named once here instead of `if (engine)` scattered through queries
 * (STYLE.md, after Kysely's own dialect overrides).
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any database type
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
