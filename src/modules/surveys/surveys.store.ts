import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Queryable } from '../../deps.js';
import { type Page, pageWindow } from '../../http/paging.js';
import type { Scope } from '../../http/principal.js';
import type { SurveyQuotasTable, SurveysTable } from './surveys.tables.js';

export type SurveyRow = Selectable<SurveysTable>;
export type SurveyListRow = Omit<SurveyRow, 'definition'>;
export type QuotaRow = Selectable<SurveyQuotasTable>;

const LIST_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'owner_id',
  'is_active',
  'start_date',
  'end_date',
  'created_at',
  'updated_at',
  'response_count_auditable',
  'response_count_generated',
  'response_count_deleted',
  'last_response_seq',
] as const;

export function findSurvey(db: Queryable, scope: Scope, surveyId: string): Promise<SurveyRow | undefined> {
  return db
    .selectFrom('surveys')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId)
    .executeTakeFirst();
}

/** The survey without its definition: for changes that do not need the document. */
export function findSurveyHeader(db: Queryable, scope: Scope, surveyId: string) {
  return db
    .selectFrom('surveys')
    .select(LIST_COLUMNS)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId)
    .executeTakeFirst();
}

/** By id alone: the survey-taking engine knows only the survey id of a link. */
export function findSurveyById(db: Queryable, surveyId: string): Promise<SurveyRow | undefined> {
  return db.selectFrom('surveys').selectAll().where('id', '=', surveyId).executeTakeFirst();
}

/** A page of the organisation's surveys, or of one owner's when `ownerId` is given. */
export function listSurveys(
  db: Queryable,
  scope: Scope,
  page: Page,
  ownerId?: string,
): Promise<SurveyListRow[]> {
  let query = db
    .selectFrom('surveys')
    .select(LIST_COLUMNS)
    .where('organization_id', '=', scope.organizationId);
  if (ownerId) query = query.where('owner_id', '=', ownerId);
  return query.orderBy('created_at').orderBy('id').$call(pageWindow(page)).execute();
}

export async function insertSurvey(db: Queryable, row: Insertable<SurveysTable>): Promise<void> {
  await db.insertInto('surveys').values(row).execute();
}

export async function updateSurvey(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  changes: Updateable<SurveysTable>,
): Promise<void> {
  await db
    .updateTable('surveys')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId)
    .execute();
}

export async function deleteSurvey(db: Queryable, scope: Scope, surveyId: string): Promise<void> {
  for (const table of ['responses', 'survey_quotas'] as const) {
    await db
      .deleteFrom(table)
      .where('organization_id', '=', scope.organizationId)
      .where('survey_id', '=', surveyId)
      .execute();
  }
  await db
    .deleteFrom('surveys')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId)
    .execute();
}

/**
 * Moves the survey's responseCounts and hands out the next response sequence number, in one statement:
 * on PostgreSQL the row lock it takes orders concurrent completions of one survey.
 */
export async function addSurveyResponseCounts(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  delta: { auditable?: number; generated?: number; deleted?: number; seq?: number },
): Promise<number> {
  const row = await db
    .updateTable('surveys')
    .set((eb) => ({
      response_count_auditable: eb('response_count_auditable', '+', delta.auditable ?? 0),
      response_count_generated: eb('response_count_generated', '+', delta.generated ?? 0),
      response_count_deleted: eb('response_count_deleted', '+', delta.deleted ?? 0),
      last_response_seq: eb('last_response_seq', '+', delta.seq ?? 0),
    }))
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId)
    .returning('last_response_seq')
    .executeTakeFirstOrThrow();
  return Number(row.last_response_seq);
}

export async function insertQuotas(db: Queryable, rows: Insertable<SurveyQuotasTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('survey_quotas').values(rows).execute();
}

export function listQuotas(db: Queryable, scope: Scope, surveyId: string): Promise<QuotaRow[]> {
  return db
    .selectFrom('survey_quotas')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .orderBy('position')
    .execute();
}

export async function addQuotaCounts(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  quotaIds: string[],
  delta: number,
): Promise<void> {
  if (quotaIds.length === 0) return;
  await db
    .updateTable('survey_quotas')
    .set((eb) => ({ current_count: eb('current_count', '+', delta) }))
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('id', 'in', quotaIds)
    .execute();
}
