import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { UsersTable } from './users.tables.js';

export type UserRow = Selectable<UsersTable>;

export function findUser(db: Queryable, scope: Scope, userId: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', userId)
    .executeTakeFirst();
}

export function listUsers(db: Queryable, scope: Scope, page: Page): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertUser(db: Queryable, row: Insertable<UsersTable>): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updateUser(
  db: Queryable,
  scope: Scope,
  userId: string,
  changes: Updateable<UsersTable>,
): Promise<void> {
  // Kysely drops undefined values; with none left there is nothing to write.
  if (Object.values(changes).every((value) => value === undefined)) return;
  await db
    .updateTable('users')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', userId)
    .execute();
}

export async function deleteUser(db: Queryable, scope: Scope, userId: string): Promise<void> {
  await db
    .deleteFrom('users')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', userId)
    .execute();
}

export async function countActiveBrandAdmins(db: Queryable, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', scope.organizationId)
    .where('user_type', '=', 'UT_BRANDADMIN')
    .where('account_status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Response counts live on the owner's row; the surveys module moves them as responses come and go. */
export async function addResponseCounts(
  db: Queryable,
  scope: Scope,
  userId: string,
  delta: { auditable?: number; generated?: number; deleted?: number },
): Promise<void> {
  await db
    .updateTable('users')
    .set((eb) => ({
      response_count_auditable: eb('response_count_auditable', '+', delta.auditable ?? 0),
      response_count_generated: eb('response_count_generated', '+', delta.generated ?? 0),
      response_count_deleted: eb('response_count_deleted', '+', delta.deleted ?? 0),
    }))
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', userId)
    .execute();
}

export async function countUsers(db: Queryable, scope: Scope, userIds: string[]): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', scope.organizationId)
    .where('id', 'in', userIds)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Unscoped on purpose: only the operator's command line, which has no caller organisation, uses it. */
export function findUserAnywhere(db: Queryable, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

/** Unscoped on purpose, for the operator's command line: a username in one organisation, or in every one. */
export function findUsersByUsername(
  db: Queryable,
  username: string,
  organizationId?: string,
): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('username', '=', username)
    .$if(organizationId !== undefined, (query) => query.where('organization_id', '=', organizationId ?? ''))
    .orderBy('organization_id')
    .execute();
}

/** The organisation's oldest active brand administrator: the one its bootstrap made, unless removed. */
export function findFirstBrandAdmin(db: Queryable, scope: Scope): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('user_type', '=', 'UT_BRANDADMIN')
    .where('account_status', '=', 'active')
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

export type UserWithTokenRow = UserRow & { token_created_at: string | null };

/** Unscoped on purpose, for `fieldwork users list`: every user (of one organisation, if given), with its token's date. */
export function listUsersWithTokens(db: Queryable, organizationId?: string): Promise<UserWithTokenRow[]> {
  return db
    .selectFrom('users')
    .leftJoin('api_tokens', 'api_tokens.user_id', 'users.id')
    .selectAll('users')
    .select('api_tokens.created_at as token_created_at')
    .$if(organizationId !== undefined, (query) =>
      query.where('users.organization_id', '=', organizationId ?? ''),
    )
    .orderBy('users.organization_id')
    .orderBy('users.created_at')
    .orderBy('users.id')
    .execute();
}

export async function countOrganizationUsers(db: Queryable, scope: Scope): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('organization_id', '=', scope.organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
