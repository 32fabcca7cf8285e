import type { Insertable, Selectable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { GroupsTable } from './groups.tables.js';

export type GroupRow = Selectable<GroupsTable>;

export function findGroup(db: Queryable, scope: Scope, groupId: string): Promise<GroupRow | undefined> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', groupId)
    .executeTakeFirst();
}

export function listGroups(db: Queryable, scope: Scope, page: Page): Promise<GroupRow[]> {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertGroup(db: Queryable, row: Insertable<GroupsTable>): Promise<void> {
  await db.insertInto('groups').values(row).execute();
}

export async function deleteGroup(db: Queryable, scope: Scope, groupId: string): Promise<void> {
  await db
    .deleteFrom('group_members')
    .where('organization_id', '=', scope.organizationId)
    .where('group_id', '=', groupId)
    .execute();
  await db
    .deleteFrom('groups')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', groupId)
    .execute();
}

export function listMemberIds(db: Queryable, scope: Scope, groupId: string): Promise<{ user_id: string }[]> {
  return db
    .selectFrom('group_members')
    .select('user_id')
    .where('organization_id', '=', scope.organizationId)
    .where('group_id', '=', groupId)
    .orderBy('added_at')
    .orderBy('user_id')
    .execute();
}

/** The groups a user is a member of (index `group_members_user`, migration 0021). */
export function listGroupIdsOfUser(
  db: Queryable,
  scope: Scope,
  userId: string,
): Promise<{ group_id: string }[]> {
  return db
    .selectFrom('group_members')
    .select('group_id')
    .where('organization_id', '=', scope.organizationId)
    .where('user_id', '=', userId)
    .execute();
}

/** Adding a member twice is not an error: the second add changes nothing. */
export async function insertMember(
  db: Queryable,
  scope: Scope,
  groupId: string,
  userId: string,
  addedAt: string,
) {
  await db
    .insertInto('group_members')
    .values({ organization_id: scope.organizationId, group_id: groupId, user_id: userId, added_at: addedAt })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
}

export async function deleteMember(
  db: Queryable,
  scope: Scope,
  groupId: string,
  userId: string,
): Promise<number> {
  const result = await db
    .deleteFrom('group_members')
    .where('organization_id', '=', scope.organizationId)
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
