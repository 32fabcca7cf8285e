import type { Insertable, Selectable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { OAuthClientsTable, OAuthTokensTable } from './oauth.tables.js';

export type ClientRow = Selectable<OAuthClientsTable>;

/** What authenticating a client or its token needs of the user it acts as and of the organisation. */
interface ActingUser {
  organization_id: string;
  user_id: string;
  user_type: string;
  account_status: string;
  account_expiration_date: string | null;
  target_audience: number;
  datacenter: string | null;
}

export interface ClientCredentials extends ActingUser {
  secret_hash: string;
  scopes: string;
}

export interface AccessTokenOwner extends ActingUser {
  token_hash: string;
  scopes: string;
  expires_at: string;
}

const ACTING_USER = [
  'users.id as user_id',
  'users.organization_id',
  'users.user_type',
  'users.account_status',
  'users.account_expiration_date',
  'organizations.target_audience',
  'organizations.datacenter',
] as const;

export async function insertClient(db: Queryable, row: Insertable<OAuthClientsTable>): Promise<void> {
  await db.insertInto('oauth_clients').values(row).execute();
}

export function listClients(db: Queryable, scope: Scope, page: Page): Promise<ClientRow[]> {
  return db
    .selectFrom('oauth_clients')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

/** A client goes with every token it was issued: they stop working on the very next call. */
export async function deleteClient(db: Queryable, scope: Scope, clientId: string): Promise<number> {
  await db
    .deleteFrom('oauth_tokens')
    .where('organization_id', '=', scope.organizationId)
    .where('client_id', '=', clientId)
    .execute();
  const result = await db
    .deleteFrom('oauth_clients')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The token endpoint's lookup, by client id alone (it tells the organisation), as the API token's is. */
export function findClientCredentials(
  db: Queryable,
  clientId: string,
): Promise<ClientCredentials | undefined> {
  return db
    .selectFrom('oauth_clients')
    .innerJoin('users', 'users.id', 'oauth_clients.user_id')
    .innerJoin('organizations', 'organizations.id', 'oauth_clients.organization_id')
    .select(['oauth_clients.secret_hash', 'oauth_clients.scopes', ...ACTING_USER])
    .where('oauth_clients.id', '=', clientId)
    .executeTakeFirst();
}

export async function insertToken(db: Queryable, row: Insertable<OAuthTokensTable>): Promise<void> {
  await db.insertInto('oauth_tokens').values(row).execute();
}

/** Issuing a token clears the client's expired ones, so a client's rows stay as few as its live tokens. */
export async function deleteExpiredTokens(
  db: Queryable,
  scope: Scope,
  clientId: string,
  now: string,
): Promise<void> {
  await db
    .deleteFrom('oauth_tokens')
    .where('organization_id', '=', scope.organizationId)
    .where('client_id', '=', clientId)
    .where('expires_at', '<=', now)
    .execute();
}

/** The authentication lookup of an access token, by hash alone (the primary key). Writes nothing. */
export function findAccessTokenOwner(
  db: Queryable,
  tokenHash: string,
): Promise<AccessTokenOwner | undefined> {
  return db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_clients', 'oauth_clients.id', 'oauth_tokens.client_id')
    .innerJoin('users', 'users.id', 'oauth_clients.user_id')
    .innerJoin('organizations', 'organizations.id', 'oauth_tokens.organization_id')
    .select(['oauth_tokens.token_hash', 'oauth_tokens.scopes', 'oauth_tokens.expires_at', ...ACTING_USER])
    .where('oauth_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}
