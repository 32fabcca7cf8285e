import { systemClock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { createClientForOperator } from './modules/oauth/oauth.service.js';
import { bootstrapOrganization } from './modules/organizations/bootstrap.service.js';
import { issueTokenFor, listUsersForOperator, type UserSelector } from './modules/users/operator.service.js';
import { openMigrated } from './open-database.js';

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
      datacenter: config.datacenter,
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

export interface OAuthClientFlags {
  scopes: string;
  name?: string;
  json?: boolean;
}

/**
 * `fieldwork oauth-client create --user UR_… --scopes manage:all [--name NAME] [--json]`: registers an
 * OAuth client acting as that user (chosen as `token` chooses one); the secret is printed only this once.
 */
export async function runOAuthClientCreate(
  config: Config,
  selector: UserSelector,
  flags: OAuthClientFlags,
  print: (line: string) => void,
): Promise<void> {
  const scopes = flags.scopes.split(/[\s,]+/).filter((scope) => scope !== '');
  const created = await withDatabase(config, (db) =>
    createClientForOperator(db, selector, { name: flags.name, scopes }, systemClock.now()),
  );
  if (flags.json) {
    print(JSON.stringify({ clientId: created.clientId, clientSecret: created.clientSecret }));
    return;
  }
  print(
    `OAuth client ${created.clientId} of organization "${created.brandId}", acting as ${created.userId}.`,
  );
  print(`Client secret (shown only this once): ${created.clientSecret}`);
  print(
    `Get a token: curl -u ${created.clientId}:<secret> -d grant_type=client_credentials <base URL>/oauth2/token`,
  );
}
