import type { Insertable, Selectable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { DivisionsTable } from './divisions.tables.js';

export type DivisionRow = Selectable<DivisionsTable>;

export function findDivision(
  db: Queryable,
  scope: Scope,
  divisionId: string,
): Promise<DivisionRow | undefined> {
  return db
    .selectFrom('divisions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', divisionId)
    .executeTakeFirst();
}

export function listDivisions(db: Queryable, scope: Scope, page: Page): Promise<DivisionRow[]> {
  return db
    .selectFrom('divisions')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertDivision(db: Queryable, row: Insertable<DivisionsTable>): Promise<void> {
  await db.insertInto('divisions').values(row).execute();
}
