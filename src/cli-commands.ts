import { systemClock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { bootstrapOrganization } from './modules/organizations/bootstrap.service.js';
import { hasToken } from './modules/users/api-tokens.store.js';
import { issueApiToken } from './modules/users/users.service.js';
import { findUserAnywhere } from './modules/users/users.store.js';

async function withDatabase<T>(
  config: Config,
  work: (db: ReturnType<typeof createDatabase>['db']) => Promise<T>,
) {
  const database = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(database.db);
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

/** `fieldwork token create|rotate --user UR_...`: the operator's way back in when a token is lost. */
export async function runToken(
  config: Config,
  action: string,
  userId: string,
  print: (line: string) => void,
): Promise<void> {
  const token = await withDatabase(config, async (db) => {
    const user = await findUserAnywhere(db, userId);
    if (!user) throw new Error(`--user: no user ${userId}`);
    const scope = { organizationId: user.organization_id };
    if (action === 'create' && (await hasToken(db, scope, userId))) {
      throw new Error(`user ${userId} already has a token; use "fieldwork token rotate" to replace it`);
    }
    return db.transaction().execute((trx) => issueApiToken(trx, scope, userId, systemClock.now()));
  });
  print(token);
}
