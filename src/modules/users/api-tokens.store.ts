import { precompiledQuery } from '../../db/precompiled.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';

/** What authenticating a call needs of a token's owner: who, which organisation, and may they call. */
export interface TokenOwner {
  token_hash: string;
  user_id: string;
  organization_id: string;
  user_type: string;
  account_status: string;
  account_expiration_date: string | null;
  target_audience: number;
  /** The organisation's data center (spec 1.4); null: this deployment's. */
  datacenter: string | null;
}

const tokenOwnerQuery = precompiledQuery<{ tokenHash: string }, TokenOwner>((db, param) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .innerJoin('organizations', 'organizations.id', 'api_tokens.organization_id')
    .select([
      'api_tokens.token_hash',
      'users.id as user_id',
      'users.organization_id',
      'users.user_type',
      'users.account_status',
      'users.account_expiration_date',
      'organizations.target_audience',
      'organizations.datacenter',
    ])
    .where('api_tokens.token_hash', '=', param('tokenHash')),
);

/**
 * The authentication lookup, on every request: by hash alone (the primary key), since the token tells the
 * organisation. Only the columns the principal and its checks need: never the owner's password hash.
 * Compiled once (db/precompiled.ts): building the join cost more than running it.
 */
export async function findTokenOwner(db: Queryable, tokenHash: string): Promise<TokenOwner | undefined> {
  const [owner] = await tokenOwnerQuery(db, { tokenHash });
  return owner;
}

/** A user has at most one token: storing a new one replaces the old (spec 5.3). */
export async function replaceToken(
  db: Queryable,
  scope: Scope,
  userId: string,
  tokenHash: string,
  createdAt: string,
): Promise<void> {
  await db
    .deleteFrom('api_tokens')
    .where('organization_id', '=', scope.organizationId)
    .where('user_id', '=', userId)
    .execute();
  await db
    .insertInto('api_tokens')
    .values({
      token_hash: tokenHash,
      organization_id: scope.organizationId,
      user_id: userId,
      created_at: createdAt,
    })
    .execute();
}

export async function hasToken(db: Queryable, scope: Scope, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('api_tokens')
    .select('user_id')
    .where('organization_id', '=', scope.organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}
