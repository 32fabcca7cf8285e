import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
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
  'response_count_deleted',
  'version',
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

/**
 * By id alone (a link carries nothing else): what a survey page reads on every request, a few short
 * columns; the definition comes from the node's compiled survey at `version` (compiled-survey.ts).
 */
export function findSurveyForTaking(db: Queryable, surveyId: string) {
  return db
    .selectFrom('surveys')
    .select(['id', 'organization_id', 'owner_id', 'is_active', 'start_date', 'end_date', 'version'])
    .where('id', '=', surveyId)
    .executeTakeFirst();
}

/** The definition with the version and name it goes with (one row, so they agree): for compiling. */
export function findSurveyDefinition(db: Queryable, surveyId: string) {
  return db
    .selectFrom('surveys')
    .select(['id', 'name', 'definition', 'version'])
    .where('id', '=', surveyId)
    .executeTakeFirst();
}

/**
 * A page of the organisation's surveys; with `visibleTo`, only those the user owns or that are shared with
 * the user or one of the user's groups.
 */
export function listSurveys(
  db: Queryable,
  scope: Scope,
  page: Page,
  visibleTo?: { userId: string; recipientIds: readonly string[] },
): Promise<SurveyListRow[]> {
  let query = db
    .selectFrom('surveys')
    .select(LIST_COLUMNS)
    .where('organization_id', '=', scope.organizationId);
  if (visibleTo) {
    query = query.where((eb) =>
      eb.or([
        eb('owner_id', '=', visibleTo.userId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('survey_collaborations')
            .select('survey_id')
            .where('organization_id', '=', scope.organizationId)
            .where('recipient_id', 'in', visibleTo.recipientIds),
        ),
      ]),
    );
  }
  return query.orderBy('created_at').orderBy('id').$call(pageWindow(page)).execute();
}

export async function insertSurvey(db: Queryable, row: Insertable<SurveysTable>): Promise<void> {
  await db.insertInto('surveys').values(row).execute();
}

/**
 * Changes a survey. A change of the definition or the name (what a compiled survey holds) moves `version`
 * in the same statement: the one invalidation rule of compiled-survey.ts, kept here so no caller can skip it.
 */
export async function updateSurvey(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  changes: Omit<Updateable<SurveysTable>, 'version'>,
): Promise<void> {
  const compiledChanges = changes.definition !== undefined || changes.name !== undefined;
  await db
    .updateTable('surveys')
    .set(changes)
    .$if(compiledChanges, (q) => q.set((eb) => ({ version: eb('version', '+', 1) })))
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
 * The write that adds responses deleted from the survey to its responseCounts.deleted (the only count it
 * keeps); survey-responses.service.ts runs it.
 */
export function deletedResponsesWrite(db: Queryable, scope: Scope, surveyId: string, count: number) {
  return db
    .updateTable('surveys')
    .set((eb) => ({ response_count_deleted: eb('response_count_deleted', '+', count) }))
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', surveyId);
}

/**
 * The survey's auditable (status 0 and 16) and generated (the others) responses, counted from the index on
 * (organization_id, survey_id, status): exact, and no completion writes a counter (decision 0012).
 */
export async function countLiveResponses(
  db: Queryable,
  scope: Scope,
  surveyId: string,
): Promise<{ auditable: number; generated: number }> {
  const row = await db
    .selectFrom('responses')
    .select((eb) => [
      eb.fn.countAll<number | string>().filterWhere('status', 'in', [0, 16]).as('auditable'),
      eb.fn.countAll<number | string>().filterWhere('status', 'not in', [0, 16]).as('generated'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  return { auditable: Number(row?.auditable ?? 0), generated: Number(row?.generated ?? 0) };
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

/** The write that moves one quota's count (survey-responses.service.ts runs it). */
export function quotaCountWrite(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  quotaId: string,
  delta: number,
) {
  return db
    .updateTable('survey_quotas')
    .set((eb) => ({ current_count: eb('current_count', '+', delta) }))
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('id', '=', quotaId);
}
