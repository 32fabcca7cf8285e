import type { Database } from '../../src/tables.js';
import type { TestApp } from './test-app.js';

/** Tables whose rows carry the organisation that owns them. */
type OwnedTable = {
  [K in keyof Database]: Database[K] extends { organization_id: string } ? K : never;
}[keyof Database];

/**
 * Every row of `tables` owned by the organisation (and its own organizations row), in a stable order:
 * taken before and after a refused call, equal snapshots show that the call changed nothing.
 */
export async function organizationRows(
  t: TestApp,
  organizationId: string,
  tables: OwnedTable[],
): Promise<Record<string, unknown[]>> {
  const db = t.database.db;
  const snapshot: Record<string, unknown[]> = {
    organizations: await db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', organizationId)
      .execute(),
  };
  for (const table of tables) {
    const rows: unknown[] = await db
      .selectFrom(table as 'users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .execute();
    snapshot[table] = rows.map((row) => JSON.stringify(row)).sort();
  }
  return snapshot;
}
