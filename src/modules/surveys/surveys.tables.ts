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
  /** responseCounts of spec 2.5, kept true by every response write. */
  response_count_auditable: Generated<number>;
  response_count_generated: Generated<number>;
  response_count_deleted: Generated<number>;
  /** The last response sequence number handed out: responses are read back in this (recorded) order. */
  last_response_seq: Generated<number>;
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
