import type { Insertable, Selectable } from 'kysely';
import type { Queryable } from '../../deps.js';
import type { OrganizationsTable } from './organizations.tables.js';

export type OrganizationRow = Selectable<OrganizationsTable>;

export function findOrganization(
  db: Queryable,
  organizationId: string,
): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst();
}

export async function insertOrganization(db: Queryable, row: Insertable<OrganizationsTable>): Promise<void> {
  await db.insertInto('organizations').values(row).execute();
}

export async function updateTargetAudience(
  db: Queryable,
  organizationId: string,
  value: number,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ target_audience: value })
    .where('id', '=', organizationId)
    .execute();
}

export async function countOrganizations(db: Queryable): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
