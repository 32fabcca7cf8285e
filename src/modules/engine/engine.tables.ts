/**
 * The survey-taking engine's tables (issue 5). A session (`FS_`) is one respondent's way through one
 * survey: its answers so far, its randomisation seed and its page, saved on every page so a reload
 * continues. A link token ties a session to a contact and a distribution (individual links).
 */
export interface EngineSessionsTable {
  id: string;
  organization_id: string;
  survey_id: string;
  /** SHA-256 of the secret half of the browser's session cookie. */
  secret_hash: string;
  /** open, complete (recorded as a response) or quota (ended by a full quota, nothing recorded). */
  status: string;
  /** The session state (seed, given embedded data, answers, page), JSON text. */
  state: string;
  link_token_hash: string | null;
  recipient_id: string | null;
  distribution_id: string | null;
  response_id: string | null;
  /**
   * The `surveys.version` the session started at: it runs that version's definition to its end, whatever
   * is published meanwhile (issue 15). Null for sessions older than migration 0016: the current version.
   */
  survey_version: number | null;
  /**
   * What the session was started for, which its completion finishes: a 360 evaluator's id (migration
   * 0020). Null for an ordinary session: its completion calls no completion hook.
   */
  started_for: string | null;
  ip_address: string | null;
  user_agent: string | null;
  started_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface EngineLinkTokensTable {
  /** SHA-256 of the token the link carries; the token itself is never stored. */
  token_hash: string;
  organization_id: string;
  survey_id: string;
  contact_id: string;
  distribution_id: string | null;
  created_at: string;
  expires_at: string | null;
}

/**
 * "Evenly present" (migration 0022): how often an item (a question, a block randomizer's child) of an
 * evenly presented element (a block, a randomizer) was presented in the survey's recorded responses.
 */
export interface EnginePresentationCountsTable {
  organization_id: string;
  survey_id: string;
  /** The block id or the randomizer's flow id. */
  element_id: string;
  /** The question id or the child's flow id. */
  item_id: string;
  presented: number;
}

export interface EngineTables {
  engine_sessions: EngineSessionsTable;
  engine_link_tokens: EngineLinkTokensTable;
  engine_presentation_counts: EnginePresentationCountsTable;
}
