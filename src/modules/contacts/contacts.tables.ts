import type { ColumnType } from 'kysely';

/**
 * The contacts family's tables (issue 3). A contact lives in one directory (pool); a mailing list belongs
 * to one directory and holds some of its contacts through memberships. Opting out exists at two levels:
 * `contacts.unsubscribed` (the whole directory) and `mailing_list_members.unsubscribed` (one list).
 */
export interface ContactsTable {
  id: string;
  organization_id: string;
  directory_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** Lower-cased email: what imports and deduplication match on. */
  email_key: string | null;
  phone: string | null;
  ext_ref: string | null;
  language: string | null;
  unsubscribed: number;
  /** When mail to the contact last bounced; null when it never did (or it was cleared). */
  bounced_at: string | null;
  /** JSON object of strings, or null when the contact has none. */
  embedded_data: string | null;
  created_at: string;
  updated_at: string;
}

export interface MailingListsTable {
  id: string;
  organization_id: string;
  directory_id: string;
  name: string;
  owner_id: string;
  category: string | null;
  folder: string | null;
  created_at: string;
  updated_at: string;
}

export interface MailingListMembersTable {
  organization_id: string;
  mailing_list_id: string;
  contact_id: string;
  /** `CGC_…`: the recipient id of this contact in this list (COMPAT.md). */
  contact_lookup_id: string;
  unsubscribed: number;
  added_at: string;
}

export interface SamplesTable {
  id: string;
  organization_id: string;
  mailing_list_id: string;
  name: string;
  size: number;
  created_at: string;
}

export interface SampleMembersTable {
  organization_id: string;
  sample_id: string;
  contact_id: string;
}

/**
 * The order contacts were added in (migration 0017), for paging a directory: set by `saveContacts` alone,
 * never changed, and not part of a contact as the services see it (`ContactRow`).
 */
export interface ContactOrder {
  seq: ColumnType<number, number | undefined, never>;
}

export interface ContactTables {
  contacts: ContactsTable & ContactOrder;
  mailing_lists: MailingListsTable;
  mailing_list_members: MailingListMembersTable;
  samples: SamplesTable;
  sample_members: SampleMembersTable;
}
