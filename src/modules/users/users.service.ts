import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import type { Write } from '../../db/dialect/index.js';
import { flag } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { type Principal, requireBrandAdmin, type UserType } from '../../http/principal.js';
import { hashSecret, sameHash } from '../../secret-hash.js';
import { findTokenOwner, replaceToken } from './api-tokens.store.js';
import { assertDivisionInScope } from './divisions.service.js';
import { hashPassword, newApiToken } from './secrets.js';
import type { CreateUserBody, UpdateUserBody } from './users.schemas.js';
import * as store from './users.store.js';

export async function getUser(deps: Deps, principal: Principal, userId: string) {
  if (userId !== principal.userId) requireBrandAdmin(principal);
  const row = await store.findUserRecord(deps.db, principal, userId);
  if (!row) throw userNotFound(userId);
  return row;
}

export async function listUsers(deps: Deps, principal: Principal, page: Page): Promise<store.UserRow[]> {
  requireBrandAdmin(principal);
  return store.listUsers(deps.db, principal, page);
}

/** Creates a user inside the caller's transaction; bootstrap uses it before any principal exists. */
export async function insertNewUser(
  db: Queryable,
  scope: Scope,
  now: Date,
  body: CreateUserBody,
): Promise<string> {
  const id = newId('UR');
  await assertDivisionInScope(db, scope, body.divisionId);
  try {
    await store.insertUser(db, {
      id,
      organization_id: scope.organizationId,
      division_id: body.divisionId ?? null,
      username: body.username,
      email: body.email,
      first_name: body.firstName,
      last_name: body.lastName,
      user_type: body.userType,
      language: body.language ?? 'en',
      time_zone: body.timeZone ?? null,
      account_status: 'active',
      unsubscribed: 0,
      password_hash: body.password ? await hashPassword(body.password) : null,
      created_at: isoSeconds(now),
      account_expiration_date: body.accountExpirationDate ?? null,
      password_last_changed_date: body.password ? isoSeconds(now) : null,
      password_expiration_date: null,
      last_login_date: null,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken(body.username);
    throw error;
  }
  return id;
}

export async function createUser(deps: Deps, principal: Principal, body: CreateUserBody): Promise<string> {
  requireBrandAdmin(principal);
  return insertNewUser(deps.db, principal, deps.clock.now(), body);
}

export async function updateUser(deps: Deps, principal: Principal, userId: string, body: UpdateUserBody) {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    const row = await store.findUser(trx, principal, userId);
    if (!row) throw userNotFound(userId);
    await assertDivisionInScope(trx, principal, body.divisionId);
    const now = isoSeconds(deps.clock.now());
    try {
      await store.updateUser(trx, principal, userId, {
        username: body.username,
        email: body.email,
        first_name: body.firstName,
        last_name: body.lastName,
        user_type: body.userType,
        language: body.language,
        division_id: body.divisionId,
        account_status: body.accountStatus,
        account_expiration_date: body.accountExpirationDate,
        password_expiration_date: body.passwordExpirationDate,
        unsubscribed: body.unsubscribed === undefined ? undefined : flag(body.unsubscribed),
        time_zone: body.timeZone,
        ...(body.password
          ? { password_hash: await hashPassword(body.password), password_last_changed_date: now }
          : {}),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw usernameTaken(body.username ?? row.username);
      throw error;
    }
    await assertAdminRemains(trx, principal);
  });
}

export async function deleteUser(deps: Deps, principal: Principal, userId: string): Promise<void> {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await store.findUser(trx, principal, userId))) throw userNotFound(userId);
    await store.deleteUser(trx, principal, userId);
    await assertAdminRemains(trx, principal);
  });
}

/** Spec 5.3: a new token replaces the old one at once. A user may renew their own; admins anyone's. */
export async function regenerateApiToken(deps: Deps, principal: Principal, userId: string): Promise<string> {
  if (userId !== principal.userId) requireBrandAdmin(principal);
  return deps.db.transaction().execute(async (trx) => {
    if (!(await store.findUser(trx, principal, userId))) throw userNotFound(userId);
    return issueApiToken(trx, principal, userId, deps.clock.now());
  });
}

export async function issueApiToken(db: Queryable, scope: Scope, userId: string, now: Date): Promise<string> {
  const token = newApiToken();
  await replaceToken(db, scope, userId, hashSecret(token), isoSeconds(now));
  return token;
}

/**
 * The authentication hook's lookup, on every request (spec 5.3: a replaced token fails on the very next
 * call, on every node, so nothing is kept between calls). Disabled and expired accounts do not
 * authenticate. The principal holds what authorisation needs and nothing more.
 */
export async function principalForToken(deps: Deps, token: string): Promise<Principal | undefined> {
  if (!/^[A-Za-z0-9]{40}$/.test(token)) return undefined;
  const hash = hashSecret(token);
  const owner = await findTokenOwner(deps.db, hash);
  if (!owner || !sameHash(owner.token_hash, hash) || owner.account_status !== 'active') return undefined;
  if (owner.account_expiration_date && new Date(owner.account_expiration_date) <= deps.clock.now())
    return undefined;
  return {
    userId: owner.user_id,
    organizationId: owner.organization_id,
    userType: owner.user_type as UserType,
    targetAudience: owner.target_audience === 1,
    ...(owner.datacenter ? { datacenter: owner.datacenter } : {}),
  };
}

export async function whoAmI(deps: Deps, principal: Principal) {
  const row = await store.findUser(deps.db, principal, principal.userId);
  if (!row) throw userNotFound(principal.userId);
  return {
    brandId: row.organization_id,
    userId: row.id,
    userName: row.username,
    accountType: row.user_type,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    // Spec 1.4: the data center the organisation belongs to.
    datacenter: principal.datacenter ?? deps.config.datacenter,
  };
}

async function assertAdminRemains(db: Queryable, scope: Scope): Promise<void> {
  if ((await store.countActiveBrandAdmins(db, scope)) === 0) {
    throw ApiError.of('FW_USR_3', 'The organization must keep at least one active brand administrator.');
  }
}

function userNotFound(userId: string): ApiError {
  return ApiError.of('FW_USR_1', `User ${userId} not found.`);
}

/** Usernames are unique within an organisation (migration 0008): the clash is always in the caller's own. */
function usernameTaken(username: string): ApiError {
  return ApiError.of('FW_USR_2', `The username ${username} is already taken in this organization.`);
}

/** For other modules: every id names a user of the scope's organisation. */
export async function allUsersInScope(db: Queryable, scope: Scope, userIds: string[]): Promise<boolean> {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return true;
  return (await store.countUsers(db, scope, unique)) === unique.length;
}

/** For the surveys and responses modules: moves the responseCounts of a survey owner's user record (spec 2.5). */
export function addOwnerResponseCounts(
  db: Queryable,
  scope: Scope,
  userId: string,
  delta: { auditable?: number; generated?: number; deleted?: number },
): Promise<void> {
  return store.addResponseCounts(db, scope, userId, delta);
}

/** addOwnerResponseCounts as a write, for a caller that runs it with its others (dialect runWrites). */
export function ownerResponseCountsWrite(
  db: Queryable,
  scope: Scope,
  userId: string,
  delta: { auditable?: number; generated?: number; deleted?: number },
): Write {
  return store.responseCountsWrite(db, scope, userId, delta);
}

/** For the organizations module: how many users the organisation has (its record's `userCount`). */
export function countOrganizationUsers(db: Queryable, scope: Scope): Promise<number> {
  return store.countOrganizationUsers(db, scope);
}
