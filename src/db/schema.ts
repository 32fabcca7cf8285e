import type { Generated } from 'kysely';
import type { EventTables } from '../events/events.tables.js';
import type { BlobTables } from '../files/blobs.tables.js';
import type { JobTables } from '../jobs/jobs.tables.js';
import type { ContactTables } from '../modules/contacts/contacts.tables.js';
import type { EngineTables } from '../modules/engine/engine.tables.js';
import type { ResponseTables } from '../modules/responses/responses.tables.js';
import type { SurveyTables } from '../modules/surveys/surveys.tables.js';

/**
 * Table types as Kysely sees them. Portable column choices, the same on both engines: timestamps are
 * ISO 8601 UTC text, booleans are integers 0/1, structured values are JSON text.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  type: string;
  status: string;
  target_audience: number;
  created_at: string;
  expiration_date: string | null;
}

export interface DivisionsTable {
  id: string;
  organization_id: string;
  name: string;
  status: string;
  division_admins: string;
  permissions: string;
  created_at: string;
}

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

export interface GroupsTable {
  id: string;
  organization_id: string;
  division_id: string | null;
  name: string;
  type: string;
  auto_membership: number;
  creator_id: string;
  created_at: string;
}

export interface GroupMembersTable {
  organization_id: string;
  group_id: string;
  user_id: string;
  added_at: string;
}

export interface DirectoriesTable {
  id: string;
  organization_id: string;
  name: string;
  is_default: number;
  created_at: string;
}

/**
 * Every table. A module that owns tables declares them in its own `<family>.tables.ts` and adds its
 * interface to the `extends` list here.
 */
export interface Database
  extends EventTables,
    ContactTables,
    JobTables,
    SurveyTables,
    ResponseTables,
    EngineTables,
    BlobTables {
  organizations: OrganizationsTable;
  divisions: DivisionsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  groups: GroupsTable;
  group_members: GroupMembersTable;
  directories: DirectoriesTable;
}
