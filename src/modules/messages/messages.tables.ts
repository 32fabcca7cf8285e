/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, JSON as text. */
export interface LibraryMessagesTable {
  /** `MS_…` */
  id: string;
  organization_id: string;
  /** The owning library: a user's (`UR_…`) or a group's (`GR_…`). */
  library_id: string;
  description: string;
  category: string;
  /** JSON object: language code → message HTML, as the caller wrote it. */
  messages: string;
  created_at: string;
  updated_at: string;
}

export interface MessageTables {
  library_messages: LibraryMessagesTable;
}
