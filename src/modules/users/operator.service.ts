import type { Queryable } from '../../deps.js';
import { hasToken } from './api-tokens.store.js';
import { issueApiToken } from './users.service.js';
import * as store from './users.store.js';

/**
 * The operator's command line (`fieldwork token`, `fieldwork users list`): it runs with access to the
 * database and no caller organisation, so it may look across organisations. Its errors name the flag.
 */

/** Which user a command means: `--user UR_…`, or `--username NAME` (with `--brand` if several), or `--brand`. */
export interface UserSelector {
  user?: string;
  username?: string;
  brand?: string;
}

export async function findSelectedUser(db: Queryable, selector: UserSelector): Promise<store.UserRow> {
  const { user, username, brand } = selector;
  if (user !== undefined) {
    if (username !== undefined || brand !== undefined)
      throw new Error('--user names one user by itself: leave out --username and --brand');
    const row = await store.findUserAnywhere(db, user);
    if (!row) throw new Error(`--user: no user ${user}`);
    return row;
  }
  if (username !== undefined) return findByUsername(db, username, brand);
  if (brand !== undefined) {
    const row = await store.findFirstBrandAdmin(db, { organizationId: brand });
    if (!row) throw new Error(`--brand: no organization "${brand}" with an active brand administrator`);
    return row;
  }
  throw new Error('name the user: --user UR_…, --username NAME (with --brand ID) or --brand ID');
}

async function findByUsername(db: Queryable, username: string, brand?: string): Promise<store.UserRow> {
  const rows = await store.findUsersByUsername(db, username, brand);
  const [first, second] = rows;
  if (!first)
    throw new Error(`--username: no user "${username}"${brand ? ` in organization "${brand}"` : ''}`);
  if (second) {
    const brands = rows.map((row) => row.organization_id).join(', ');
    throw new Error(`--username: "${username}" exists in organizations ${brands}; add --brand`);
  }
  return first;
}

/**
 * `token create` gives a token to a user who has none and refuses otherwise (a user holds one token,
 * spec 5.3, and replacing it silently would cut off whoever uses it); `token rotate` replaces it.
 */
export async function issueTokenFor(
  db: Queryable,
  selector: UserSelector,
  action: 'create' | 'rotate',
  now: Date,
): Promise<{ user: store.UserRow; token: string }> {
  return db.transaction().execute(async (trx) => {
    const user = await findSelectedUser(trx, selector);
    const scope = { organizationId: user.organization_id };
    if (action === 'create' && (await hasToken(trx, scope, user.id))) {
      throw new Error(
        `user ${user.id} (${user.username}) already has a token, and a user holds one: ` +
          `"npx fieldwork token rotate" replaces it (the old one stops working at once)`,
      );
    }
    return { user, token: await issueApiToken(trx, scope, user.id, now) };
  });
}

export function listUsersForOperator(db: Queryable, brand?: string): Promise<store.UserWithTokenRow[]> {
  return store.listUsersWithTokens(db, brand);
}
