import { randomInt } from 'node:crypto';
import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import { precompiledQuery } from '../../db/precompiled.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { UsersTable } from './users.tables.js';

export type UserRow = Selectable<UsersTable>;

/** Spec 2.5's responseCounts of a user: the responses of the surveys they own. */
export interface ResponseCounts {
  auditable: number;
  generated: number;
  deleted: number;
}

const COUNTS = ['auditable', 'generated', 'deleted'] as const;

/** Stripes of a user's counter: completions recorded at once add to different rows (decision 0012). */
export const RESPONSE_COUNT_STRIPES = 16;

type CountSums = { [K in (typeof COUNTS)[number] as `sum_${K}`]: number | string | null };

const userRecordQuery = precompiledQuery<{ organizationId: string; userId: string }, UserRow & CountSums>(
  (db, param) =>
    db
      .selectFrom('users')
      .leftJoin('user_response_counts as c', (join) =>
        join.onRef('c.organization_id', '=', 'users.organization_id').onRef('c.user_id', '=', 'users.id'),
      )
      .selectAll('users')
      .select((eb) =>
        COUNTS.map((count) => eb.fn.sum<number | string | null>(`c.${count}`).as(`sum_${count}`)),
      )
      .where('users.organization_id', '=', param('organizationId'))
      .where('users.id', '=', param('userId'))
      .groupBy('users.id'),
);

/** `GET /users/{id}`: the user and their responseCounts (the sums of the counter's stripes), one read. */
export async function findUserRecord(
  db: Queryable,
  scope: Scope,
  userId: string,
): Promise<(UserRow & { responseCounts: ResponseCounts }) | undefined> {
  const [row] = await userRecordQuery(db, { organizationId: scope.organizationId, userId });
  if (!row) return undefined;
  // No stripe yet: SQL's sum of nothing is null. PostgreSQL's sum of integers is a bigint (text here).
  // The row is this call's own: the counts join it rather than a copy of it without the sums.
  const responseCounts = {
    auditable: Number(row.sum_auditable ?? 0),
    generated: Number(row.sum_generated ?? 0),
    deleted: Number(row.sum_deleted ?? 0),
  };
  return Object.assign(row, { responseCounts });
}

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

/**
 * The write that moves a user's responseCounts by a delta, in one stripe of their counter (random unless
 * given): the surveys and responses modules run it as responses come and go, in the recording's transaction.
 */
export function responseCountsWrite(
  db: Queryable,
  scope: Scope,
  userId: string,
  delta: Partial<ResponseCounts>,
  stripe = randomInt(RESPONSE_COUNT_STRIPES),
) {
  return db
    .insertInto('user_response_counts')
    .values({
      organization_id: scope.organizationId,
      user_id: userId,
      stripe,
      auditable: delta.auditable ?? 0,
      generated: delta.generated ?? 0,
      deleted: delta.deleted ?? 0,
    })
    .onConflict((conflict) =>
      conflict.columns(['organization_id', 'user_id', 'stripe']).doUpdateSet((eb) => ({
        auditable: eb('user_response_counts.auditable', '+', eb.ref('excluded.auditable')),
        generated: eb('user_response_counts.generated', '+', eb.ref('excluded.generated')),
        deleted: eb('user_response_counts.deleted', '+', eb.ref('excluded.deleted')),
      })),
    );
}

/** responseCountsWrite, run. */
export async function addResponseCounts(
  db: Queryable,
  scope: Scope,
  userId: string,
  delta: Partial<ResponseCounts>,
  stripe?: number,
): Promise<void> {
  await responseCountsWrite(db, scope, userId, delta, stripe).execute();
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
