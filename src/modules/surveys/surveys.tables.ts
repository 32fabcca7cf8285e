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

export interface SurveyTables {
  surveys: SurveysTable;
  survey_quotas: SurveyQuotasTable;
}
