import { preparedQuery } from '../../db/prepared.js';
import { cachedRead } from '../../db/read-cache.js';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
import type { UserRow } from './users.store.js';

/** The token's owner, whole (the caller's own record is then one query away from nothing), and its flag. */
export type TokenOwnerRow = UserRow & { token_hash: string; target_audience: number };

const tokenOwnerQuery = preparedQuery((db) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .innerJoin('organizations', 'organizations.id', 'api_tokens.organization_id')
    .selectAll('users')
    .select(['api_tokens.token_hash', 'organizations.target_audience'])
    .where('api_tokens.token_hash', '=', ''),
);

/**
 * The authentication lookup, on every request: by hash alone, since the token tells the organisation.
 * Kept until the next write to the database (`cachedRead`), so a replaced token fails on the next call.
 */
export const findTokenOwner = cachedRead<TokenOwnerRow>(async (db, tokenHash) => {
  const [row] = await tokenOwnerQuery(db, [tokenHash]);
  return row;
});

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
