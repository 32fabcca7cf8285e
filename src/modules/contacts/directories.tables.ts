/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, booleans 0/1, JSON as text. */
export interface DirectoriesTable {
  id: string;
  organization_id: string;
  name: string;
  is_default: number;
  created_at: string;
}

export interface DirectoryTables {
  directories: DirectoriesTable;
}
