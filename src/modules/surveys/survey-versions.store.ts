import type { Insertable, Selectable } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { SurveyQuotasTable, SurveyVersionsTable } from './surveys.tables.js';

export type SurveyVersionRow = Selectable<SurveyVersionsTable>;
export type SurveyVersionListRow = Omit<SurveyVersionRow, 'definition'>;

const LIST_COLUMNS = [
  'organization_id',
  'survey_id',
  'id',
  'version_number',
  'description',
  'user_id',
  'published',
  'engine_version',
  'created_at',
] as const;

export function findDraft(db: Queryable, scope: Scope, surveyId: string) {
  return db
    .selectFrom('survey_drafts')
    .select(['definition', 'updated_at'])
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
}

export async function saveDraft(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  definition: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('survey_drafts')
    .values({ survey_id: surveyId, organization_id: scope.organizationId, definition, updated_at: now })
    .onConflict((oc) => oc.column('survey_id').doUpdateSet({ definition, updated_at: now }))
    .execute();
}

export async function deleteDraft(db: Queryable, scope: Scope, surveyId: string): Promise<void> {
  await db
    .deleteFrom('survey_drafts')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .execute();
}

/** The survey's versions from number 1 on (0, the definition before the first, is never listed). */
export function listVersions(db: Queryable, scope: Scope, surveyId: string): Promise<SurveyVersionListRow[]> {
  return db
    .selectFrom('survey_versions')
    .select(LIST_COLUMNS)
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('version_number', '>', 0)
    .orderBy('version_number')
    .execute();
}

export function findVersion(db: Queryable, scope: Scope, surveyId: string, versionId: string) {
  return db
    .selectFrom('survey_versions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .where('id', '=', versionId)
    .where('version_number', '>', 0)
    .executeTakeFirst();
}

/** The highest version number the survey has, or undefined when it has none (not even version 0). */
export async function lastVersionNumber(db: Queryable, scope: Scope, surveyId: string) {
  const row = await db
    .selectFrom('survey_versions')
    .select((eb) => eb.fn.max('version_number').as('top'))
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .executeTakeFirst();
  return row?.top === null || row?.top === undefined ? undefined : Number(row.top);
}

export async function insertVersion(db: Queryable, row: Insertable<SurveyVersionsTable>): Promise<void> {
  await db.insertInto('survey_versions').values(row).execute();
}

/**
 * The publication a session at `surveys.version` = `engineVersion` runs: the latest published at or
 * before it. By survey id alone, like the compiled survey it feeds (a link carries nothing else).
 */
export function findPublishedAt(db: Queryable, surveyId: string, engineVersion: number) {
  return db
    .selectFrom('survey_versions')
    .select(['id', 'version_number', 'engine_version', 'definition'])
    .where('survey_id', '=', surveyId)
    .where('published', '=', 1)
    .where('engine_version', '<=', engineVersion)
    .orderBy('engine_version', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Makes the survey's quota rows those of its newly published definition: new quotas start at 0, kept
 * ones keep their count with the new name, limit, condition and action, removed ones go.
 */
export async function replaceQuotas(
  db: Queryable,
  scope: Scope,
  surveyId: string,
  rows: Insertable<SurveyQuotasTable>[],
): Promise<void> {
  const ids = rows.map((r) => r.id);
  await db
    .deleteFrom('survey_quotas')
    .where('organization_id', '=', scope.organizationId)
    .where('survey_id', '=', surveyId)
    .$if(ids.length > 0, (q) => q.where('id', 'not in', ids))
    .execute();
  for (const row of rows) {
    const { name, quota_limit, logic, action, position } = row;
    await db
      .insertInto('survey_quotas')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['survey_id', 'id']).doUpdateSet({ name, quota_limit, logic, action, position }),
      )
      .execute();
  }
}
