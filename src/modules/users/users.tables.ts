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
}

/**
 * A user's responseCounts (spec 2.5) as a counter in stripes: a recording adds to one stripe, chosen at
 * random, so that completions of one owner's surveys do not queue on one row; the counts are the sums.
 */
export interface UserResponseCountsTable {
  organization_id: string;
  user_id: string;
  stripe: number;
  auditable: Generated<number>;
  generated: Generated<number>;
  deleted: Generated<number>;
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
  user_response_counts: UserResponseCountsTable;
}
