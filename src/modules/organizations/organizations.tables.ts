/** Portable columns (docs/ARCHITECTURE.md): timestamps ISO 8601 UTC text, booleans 0/1, JSON as text. */
export interface OrganizationsTable {
  id: string;
  name: string;
  type: string;
  status: string;
  target_audience: number;
  created_at: string;
  expiration_date: string | null;
  /** The data center the organisation belongs to (spec 1.4); null: the deployment that holds it. */
  datacenter: string | null;
}

export interface OrganizationTables {
  organizations: OrganizationsTable;
}
