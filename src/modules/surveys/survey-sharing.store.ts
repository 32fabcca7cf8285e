import type { Insertable, Selectable } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { SurveyCollaborationsTable } from './surveys.tables.js';

export type CollaborationRow = Selectable<SurveyCollaborationsTable>;

/** Shares the survey with the recipient, or replaces the permissions of the share there is. */
export async function upsertCollaboration(
  db: Queryable,
  row: Insertable<SurveyCollaborationsTable>,
): Promise<void> {
  await db
    .insertInto('survey_collaborations')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['survey_id', 'recipient_id']).doUpdateSet({
        permissions: row.permissions,
        shared_by: row.shared_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export function listCollaborations(
  db: Queryable,
  scope: Scope,
  surveyId: string,
): Promise<CollaborationRow[]> {
  return db
    .selectFrom('survey_collaborations')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .orderBy('created_at')
    .orderBy('recipient_id')
    .execute();
}

/** The permissions (JSON text) the survey is shared with to any of these users or groups. */
export function sharesWith(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  recipientIds: readonly string[],
): Promise<{ permissions: string }[]> {
  return db
    .selectFrom('survey_collaborations')
    .select('permissions')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('recipient_id', 'in', recipientIds)
    .execute();
}

/** Ends a share; false when there was none. */
export async function deleteCollaboration(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  recipientId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('survey_collaborations')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('recipient_id', '=', recipientId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
