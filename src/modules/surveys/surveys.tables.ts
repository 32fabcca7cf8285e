import type { Generated } from 'kysely';

/**
 * The surveys family's tables (issue 5). The canonical definition is the normalised QSF document
 * (`definition`, JSON text); the columns beside it are what lists, the engine and the counters query.
 */
export interface SurveysTable {
  id: string;
  organization_id: string;
  name: string;
  owner_id: string;
  is_active: number;
  /** Expiration window (ISO 8601 UTC with `Z`), null when open-ended. */
  start_date: string | null;
  end_date: string | null;
  /** The normalised QSF document: `{SurveyEntry, SurveyElements}`. */
  definition: string;
  created_at: string;
  updated_at: string;
  /**
   * Spec 2.5's responseCounts.deleted: responses deleted from the survey. Its auditable and generated
   * counts are counted from its responses (decision 0012), so a completion never writes this row.
   */
  response_count_deleted: Generated<number>;
  /**
   * What a node's compiled survey is cached under, with the id (decision 0012): 1 when the survey is made,
   * moved in the same statement as every change of the definition or the name (surveys.store.ts).
   */
  version: Generated<number>;
}

/** One row per QO element of the definition: the condition, the limit and the running count. */
export interface SurveyQuotasTable {
  organization_id: string;
  survey_id: string;
  id: string;
  name: string;
  quota_limit: number;
  current_count: Generated<number>;
  /** The QSF quota's Logic (a BooleanExpression), JSON text; null when it has none (every response counts). */
  logic: string | null;
  /** QuotaAction of the QSF (`EndCurrentSurvey`, ...). */
  action: string;
  position: number;
}

/**
 * Changes made through the definitions API (issue 15) and not published yet: the whole working QSF
 * document. No row: the working definition is the published one (`surveys.definition`).
 */
export interface SurveyDraftsTable {
  survey_id: string;
  organization_id: string;
  definition: string;
  updated_at: string;
}

/**
 * A version of a survey's definition (`POST /v3/survey-definitions/{id}/versions`), kept as it was. A
 * published version's `engine_version` is the `surveys.version` its publication moved to: a session
 * started at that version, or a later one before the next publication, runs this definition. Version 0
 * (never listed) is the definition the survey had before its first published version.
 */
export interface SurveyVersionsTable {
  organization_id: string;
  survey_id: string;
  /** The version's id as the real service writes it: a decimal number in a string. */
  id: string;
  version_number: number;
  description: string;
  user_id: string | null;
  /** 1 published (the engine ran it from `engine_version` on), 0 a saved snapshot only. */
  published: number;
  engine_version: number | null;
  /** The normalised QSF document of the version. */
  definition: string;
  created_at: string;
}

/**
 * A survey shared with a user (`UR_`) or a group (`GR_`) of the organisation (issue 15 part 5):
 * `permissions` is the JSON text of the named permissions granted (survey-permissions.ts).
 */
export interface SurveyCollaborationsTable {
  organization_id: string;
  survey_id: string;
  recipient_id: string;
  permissions: string;
  /** The user who shared it. */
  shared_by: string;
  created_at: string;
  updated_at: string;
}

export interface SurveyTables {
  surveys: SurveysTable;
  survey_quotas: SurveyQuotasTable;
  survey_drafts: SurveyDraftsTable;
  survey_versions: SurveyVersionsTable;
  survey_collaborations: SurveyCollaborationsTable;
}
