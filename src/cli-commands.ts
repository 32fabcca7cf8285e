import { systemClock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { bootstrapOrganization } from './modules/organizations/bootstrap.service.js';
import { issueTokenFor, listUsersForOperator, type UserSelector } from './modules/users/operator.service.js';
import { openMigrated } from './server.js';

async function withDatabase<T>(config: Config, work: (db: Db['db']) => Promise<T>) {
  const { database } = await openMigrated(config);
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

export interface InitFlags {
  brand: string;
  name?: string;
  targetAudience?: boolean;
  json?: boolean;
}

/** `fieldwork init`: the first-start bootstrap, for scripts. Run again with another --brand, it adds one. */
export async function runInit(
  config: Config,
  flags: InitFlags,
  print: (line: string) => void,
): Promise<void> {
  const result = await withDatabase(config, (db) =>
    bootstrapOrganization(db, systemClock.now(), {
      brandId: flags.brand,
      name: flags.name,
      targetAudience: flags.targetAudience ?? false,
    }),
  );
  if (flags.json) {
    print(JSON.stringify(result));
    return;
  }
  print(`Organization "${result.brandId}" created with default directory ${result.directoryId}.`);
  print(`Brand administrator ${result.userId}, API token (shown only this once): ${result.apiToken}`);
}

/**
 * `fieldwork token create|rotate --user UR_… | --username NAME [--brand ID] | --brand ID`: the operator's
 * way back in when a token is lost. Prints the token alone, for scripts.
 */
export async function runToken(
  config: Config,
  action: 'create' | 'rotate',
  selector: UserSelector,
  print: (line: string) => void,
): Promise<void> {
  const { token } = await withDatabase(config, (db) =>
    issueTokenFor(db, selector, action, systemClock.now()),
  );
  print(token);
}

/** `fieldwork users list [--brand ID]`: who can be given a token, and who holds one; tab-separated. */
export async function runUsersList(
  config: Config,
  brand: string | undefined,
  print: (line: string) => void,
): Promise<void> {
  const rows = await withDatabase(config, (db) => listUsersForOperator(db, brand));
  print(['brand', 'userId', 'username', 'userType', 'status', 'token'].join('\t'));
  for (const row of rows) {
    const token = row.token_created_at ? `since ${row.token_created_at}` : 'none';
    print([row.organization_id, row.id, row.username, row.user_type, row.account_status, token].join('\t'));
  }
}
