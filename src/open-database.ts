import type { Config } from './config.js';
import { createDatabase, type Db, migrateToLatest } from './db/database.js';

// Kept apart from server.ts so that the commands that only need the database (migrate, init, token,
// users) do not load the whole HTTP application first.

/** A start that cannot go on (port taken, host not local, database unreachable): one line for the CLI. */
export class StartError extends Error {}

export async function openMigrated(config: Config): Promise<{ database: Db; applied: string[] }> {
  const database = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return { database, applied: await migrateToLatest(database.db) };
  } catch (error) {
    await database.close();
    throw config.databaseUrl ? databaseError(error) : error;
  }
}

const CONNECTION_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'nothing accepts connections there',
  ENOTFOUND: 'the host name does not resolve',
  ETIMEDOUT: 'the connection timed out',
  '28P01': 'the password is wrong',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist',
};

function databaseError(error: unknown): unknown {
  const code = String((error as { code?: unknown })?.code);
  const reason = CONNECTION_ERRORS[code];
  if (!reason) return error;
  return new StartError(`cannot use the PostgreSQL of --database-url or DATABASE_URL: ${reason} (${code})`);
}
