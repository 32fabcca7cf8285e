import type { Generated } from 'kysely';

/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, booleans 0/1, JSON as text. */
export interface UsersTable {
  id: string;
  organization_id: string;
  division_id: string | null;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  user_type: string;
  language: string;
  time_zone: string | null;
  account_status: string;
  unsubscribed: number;
  password_hash: string | null;
  created_at: string;
  account_expiration_date: string | null;
  password_last_changed_date: string | null;
  password_expiration_date: string | null;
  last_login_date: string | null;
  response_count_auditable: Generated<number>;
  response_count_generated: Generated<number>;
  response_count_deleted: Generated<number>;
}

export interface ApiTokensTable {
  token_hash: string;
  organization_id: string;
  user_id: string;
  created_at: string;
}

export interface UserTables {
  users: UsersTable;
  api_tokens: ApiTokensTable;
}
