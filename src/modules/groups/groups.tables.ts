/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, booleans 0/1, JSON as text. */
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

export interface GroupTables {
  groups: GroupsTable;
  group_members: GroupMembersTable;
}
