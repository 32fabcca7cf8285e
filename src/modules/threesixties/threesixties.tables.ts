/**
 * The 360 evaluations' tables (issue 16). A program (`TS_`) ties an evaluation survey to a workflow; its
 * subjects (`TSP_`) are the people evaluated; each evaluator (`TSE_`) evaluates one subject, nominated
 * (with a link of their own) or unsolicited (through the subject's open link). Mails are the invitations
 * and nomination requests, sent by a job through the distributions' mail sender.
 */
export interface ThreeSixtiesTable {
  id: string;
  organization_id: string;
  owner_id: string;
  survey_id: string;
  name: string;
  /** Active or Inactive (spec 3). */
  status: string;
  /** The workflow (workflow.ts), JSON text. */
  workflow: string;
  from_email: string;
  from_name: string | null;
  /** Scheme and host of the request that made the program: its links start with it. */
  link_base_url: string;
  created_at: string;
  updated_at: string;
}

export interface ThreeSixtySubjectsTable {
  id: string;
  organization_id: string;
  threesixty_id: string;
  first_name: string;
  last_name: string;
  email: string;
  /** Waiting or Done (spec 3). */
  status: string;
  /** SHA-256 of the subject's open evaluation link token (unsolicited evaluations). */
  open_token_hash: string;
  /** SHA-256 of the subject's nomination page token (workflows where subjects nominate). */
  nominate_token_hash: string | null;
  /** SHA-256 of the report link token; set each time the report becomes ready. */
  report_token_hash: string | null;
  report_ready_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ThreeSixtyEvaluatorsTable {
  id: string;
  organization_id: string;
  threesixty_id: string;
  subject_id: string;
  email: string;
  first_name: string;
  last_name: string;
  relationship: string;
  /** 1 nominated, 0 unsolicited (came through the subject's open link). */
  nominated: number;
  /** SHA-256 of the evaluation link token (nominated evaluators only). */
  token_hash: string | null;
  /** Nominated, Started or Finished. */
  status: string;
  session_id: string | null;
  response_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface ThreeSixtyMailsTable {
  id: string;
  organization_id: string;
  threesixty_id: string;
  subject_id: string;
  /** The nomination an invitation is for; null for a subject's nomination request. */
  evaluator_id: string | null;
  /** invitation (to an evaluator) or nominate (to a subject whose workflow lets subjects nominate). */
  kind: string;
  to_email: string;
  to_name: string;
  /** The link the mail carries, sealed with the node's secret key (only its hash is kept elsewhere). */
  link_sealed: string;
  /** held (program inactive), queued, sent, failed, bounced or canceled. */
  status: string;
  attempts: number;
  reason: string | null;
  message_id: string;
  created_at: string;
  sent_at: string | null;
}

export interface ThreeSixtyTables {
  threesixties: ThreeSixtiesTable;
  threesixty_subjects: ThreeSixtySubjectsTable;
  threesixty_evaluators: ThreeSixtyEvaluatorsTable;
  threesixty_mails: ThreeSixtyMailsTable;
}
