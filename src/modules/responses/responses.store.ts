import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queryable } from '../../deps.js';
import type { Scope } from '../../http/principal.js';
import type { ResponsesTable } from './responses.tables.js';

export type ResponseRow = Selectable<ResponsesTable>;

export async function insertResponse(db: Queryable, row: Insertable<ResponsesTable>): Promise<void> {
  await db.insertInto('responses').values(row).execute();
}

export function findResponse(
  db: Queryable,
  scope: Scope,
  responseId: string,
): Promise<ResponseRow | undefined> {
  return db
    .selectFrom('responses')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .executeTakeFirst();
}

/** Which of these ids exist, in any organisation (ids are unique across all): for response imports. */
export function listResponseOwners(db: Queryable, ids: readonly string[]) {
  return db
    .selectFrom('responses')
    .select(['id', 'organization_id', 'survey_id'])
    .where('id', 'in', ids)
    .execute();
}

export async function findResponseIdBySession(db: Queryable, sessionId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('responses')
    .select('id')
    .where('session_id', '=', sessionId)
    .executeTakeFirst();
  return row?.id;
}

export async function updateResponse(
  db: Queryable,
  scope: Scope,
  responseId: string,
  changes: Updateable<ResponsesTable>,
): Promise<void> {
  await db
    .updateTable('responses')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .execute();
}

export async function deleteResponse(db: Queryable, scope: Scope, responseId: string): Promise<void> {
  await db
    .deleteFrom('responses')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', responseId)
    .execute();
}

/** One batch of a survey's responses after sequence number `afterSeq`, in recorded order. */
export function listResponsesAfter(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  afterSeq: number,
  limit: number,
): Promise<ResponseRow[]> {
  return db
    .selectFrom('responses')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
}
