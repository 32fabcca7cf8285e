import { isoSeconds } from '../../clock.js';
import { isUniqueViolation } from '../../db/database.js';
import { flag } from '../../db/json.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { newId } from '../../http/ids.js';
import { type Principal, requireBrandAdmin } from '../../http/principal.js';
import { assertDivisionInScope } from '../users/divisions.service.js';
import { allUsersInScope } from '../users/users.service.js';
import type { CreateGroupBody } from './groups.schemas.js';
import * as store from './groups.store.js';

export function listGroups(deps: Deps, principal: Principal, page: Page) {
  return store.listGroups(deps.db, principal, page);
}

export async function getGroup(deps: Deps, principal: Principal, groupId: string) {
  const row = await store.findGroup(deps.db, principal, groupId);
  if (!row) throw groupNotFound(groupId);
  const members = await store.listMemberIds(deps.db, principal, groupId);
  return { row, memberIds: members.map((m) => m.user_id) };
}

export async function createGroup(deps: Deps, principal: Principal, body: CreateGroupBody): Promise<string> {
  requireBrandAdmin(principal);
  await assertDivisionInScope(deps.db, principal, body.divisionId);
  const id = newId('GR');
  try {
    await store.insertGroup(deps.db, {
      id,
      organization_id: principal.organizationId,
      division_id: body.divisionId ?? null,
      name: body.name,
      type: body.type ?? 'GT_DEFAULT',
      auto_membership: flag(body.autoMembership ?? false),
      creator_id: principal.userId,
      created_at: isoSeconds(deps.clock.now()),
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw ApiError.of('FW_GRP_2', `A group named ${body.name} already exists.`);
    throw error;
  }
  return id;
}

export async function deleteGroup(deps: Deps, principal: Principal, groupId: string): Promise<void> {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await store.findGroup(trx, principal, groupId))) throw groupNotFound(groupId);
    await store.deleteGroup(trx, principal, groupId);
  });
}

export async function addMember(
  deps: Deps,
  principal: Principal,
  groupId: string,
  userId: string,
): Promise<void> {
  requireBrandAdmin(principal);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await store.findGroup(trx, principal, groupId))) throw groupNotFound(groupId);
    if (!(await allUsersInScope(trx, principal, [userId])))
      throw ApiError.of('FW_USR_1', `User ${userId} not found.`);
    await store.insertMember(trx, principal, groupId, userId, isoSeconds(deps.clock.now()));
  });
}

export async function removeMember(
  deps: Deps,
  principal: Principal,
  groupId: string,
  userId: string | undefined,
) {
  requireBrandAdmin(principal);
  if (!userId) throw ApiError.invalid('userId', 'is required');
  await deps.db.transaction().execute(async (trx) => {
    if (!(await store.findGroup(trx, principal, groupId))) throw groupNotFound(groupId);
    if ((await store.deleteMember(trx, principal, groupId, userId)) === 0) {
      throw ApiError.of('FW_USR_1', `User ${userId} is not a member of group ${groupId}.`);
    }
  });
}

/** For library access (the messages module): undefined when the organisation has no such group. */
export async function groupMembership(
  db: Queryable,
  scope: Scope,
  groupId: string,
  userId: string,
): Promise<{ member: boolean } | undefined> {
  if (!(await store.findGroup(db, scope, groupId))) return undefined;
  const members = await store.listMemberIds(db, scope, groupId);
  return { member: members.some((m) => m.user_id === userId) };
}

function groupNotFound(groupId: string): ApiError {
  return ApiError.of('FW_GRP_1', `Group ${groupId} not found.`);
}

/** For survey sharing (the surveys module): the ids of the groups the user is a member of. */
export async function groupIdsOfUser(db: Queryable, scope: Scope, userId: string): Promise<string[]> {
  return (await store.listGroupIdsOfUser(db, scope, userId)).map((row) => row.group_id);
}

/** For survey sharing: does the organisation have this group? */
export async function groupExists(db: Queryable, scope: Scope, groupId: string): Promise<boolean> {
  return (await store.findGroup(db, scope, groupId)) !== undefined;
}
