/**
 * The distributions family's tables (issue 12). A distribution is one e-mail send (an invite, or a
 * reminder or thank-you that follows one up); each recipient is a row with its own delivery state, so a
 * send resumes where it stopped (docs/decisions/0009-distribution-delivery.md).
 */
export interface DistributionsTable {
  id: string;
  organization_id: string;
  owner_id: string;
  survey_id: string;
  /** Invite, Reminder or ThankYou. */
  request_type: string;
  /** The distribution a reminder or thank-you follows up; null for an invite. */
  parent_id: string | null;
  /** The invite whose individual links the recipients got (the distribution itself for an invite). */
  root_id: string;
  /** Individual, Multiple or Anonymous. */
  link_type: string;
  link_expires_at: string | null;
  library_id: string | null;
  message_id: string | null;
  /** The inline message, as given (null for a library message). */
  message_text: string | null;
  /** JSON `{"<lang>": "<html>"}`: the message as it was when the distribution was made. */
  message_body: string;
  from_email: string;
  from_name: string | null;
  reply_to_email: string | null;
  subject: string;
  mailing_list_id: string;
  contact_id: string | null;
  sample_id: string | null;
  send_date: string;
  /** Pending (waiting for its send date), InProgress, Done or Canceled. */
  status: string;
  /** 1 once every recipient has a row (the send then only works through the rows). */
  recipients_collected: number;
  /** Scheme and host the distribution was made through: the links in its messages point there. */
  link_base_url: string;
  created_at: string;
  updated_at: string;
}

export interface DistributionRecipientsTable {
  organization_id: string;
  distribution_id: string;
  contact_id: string;
  contact_lookup_id: string | null;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  ext_ref: string | null;
  language: string | null;
  /** JSON object of strings, or null. */
  embedded_data: string | null;
  /** pending, sending, sent, bounced, failed, skipped or canceled (recipient-state.ts). */
  state: string;
  /** Why a recipient was skipped, bounced or failed (the server's answer), or why the last try failed. */
  reason: string | null;
  attempts: number;
  /** Date.toISOString(): not sent before this (a temporary refusal waits). */
  next_attempt_at: string;
  /** The job attempt that marked the row `sending`. */
  sending_owner: string | null;
  /** The Message-ID header, the same on every try. */
  message_id: string;
  /** The individual link's token, sealed with the node's secret key (the links call shows the link). */
  link_sealed: string | null;
  /** SHA-256 of the recipient's token (opt-out and open-tracking links); the token is only in the message. */
  token_hash: string | null;
  sent_at: string | null;
  opened_at: string | null;
  unsubscribed_at: string | null;
}

export interface DistributionTables {
  distributions: DistributionsTable;
  distribution_recipients: DistributionRecipientsTable;
}
