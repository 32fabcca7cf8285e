import { type Kysely, PostgresAdapter } from 'kysely';
import type { EngineDialect } from './engine-dialect.js';
import * as postgres from './postgres.js';
import * as sqlite from './sqlite.js';

export type { EngineDialect, Write } from './engine-dialect.js';

// Each engine's module, checked whole against the interface: a missing or mistyped difference fails here.
const sqliteDialect: EngineDialect = sqlite;
const postgresDialect: EngineDialect = postgres;

/** The one place that asks which engine a database handle (or transaction) runs on. */
// biome-ignore lint/suspicious/noExplicitAny: works on any database type
export function dialectOf(db: Kysely<any>): EngineDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? postgresDialect : sqliteDialect;
}

/** A unique-constraint violation, on either engine: the service turns it into a 409 naming the field. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlite.isUniqueViolation(error) || postgres.isUniqueViolation(error);
}
