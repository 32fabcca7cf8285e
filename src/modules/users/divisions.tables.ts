/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, booleans 0/1, JSON as text. */
export interface DivisionsTable {
  id: string;
  organization_id: string;
  name: string;
  status: string;
  division_admins: string;
  permissions: string;
  created_at: string;
}

export interface DivisionTables {
  divisions: DivisionsTable;
}
