/**
 * The responses family's table (issue 5). `values` holds every value key of the response (answers,
 * metadata, embedded data) as the v3 API and the exports name them; the metadata also has columns of its
 * own for what is queried or shown in lists.
 */
export interface ResponsesTable {
  id: string;
  organization_id: string;
  survey_id: string;
  /** Per survey, 1, 2, 3 …: the recorded order, which readers and exports follow. */
  seq: number;
  /** v3 response status code: 0 IP Address, 1 Survey Preview, 2 Survey Test, 4 Imported, 8 Spam, … */
  status: number;
  finished: number;
  progress: number;
  duration: number;
  start_date: string;
  end_date: string;
  recorded_date: string;
  ip_address: string | null;
  user_agent: string | null;
  user_language: string | null;
  recipient_id: string | null;
  distribution_id: string | null;
  distribution_channel: string;
  session_id: string | null;
  /**
   * The publication the response was taken on (issue 15, migration 0019): the `surveys.version` it moved
   * to, 0 before the first, as `engine_sessions.survey_version`; null for responses recorded before.
   */
  survey_version: number | null;
  /** JSON objects: the response as `GET .../responses/{id}` answers it. */
  values: string;
  labels: string;
  displayed_fields: string;
  displayed_values: string;
  embedded_data: string;
  updated_at: string;
  /**
   * The json export's `"values":{…},"labels":{…}` for this response, written when it was recorded, and the
   * key of the export layout it was written on (migration 0025, decision 0022). Null for rows recorded
   * before, recorded without a definition, or changed since: an export then writes them from `values`.
   */
  export_json: string | null;
  export_json_layout: string | null;
}

export interface ResponseTables {
  responses: ResponsesTable;
}
