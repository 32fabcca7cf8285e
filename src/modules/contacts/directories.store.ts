import type { Insertable, Selectable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { DirectoriesTable } from './directories.tables.js';

export type DirectoryRow = Selectable<DirectoriesTable>;

export async function insertDirectory(db: Queryable, row: Insertable<DirectoriesTable>): Promise<void> {
  await db.insertInto('directories').values(row).execute();
}

export function findDirectory(
  db: Queryable,
  scope: Scope,
  directoryId: string,
): Promise<DirectoryRow | undefined> {
  return db
    .selectFrom('directories')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', directoryId)
    .executeTakeFirst();
}

export function findDefaultDirectory(db: Queryable, scope: Scope): Promise<DirectoryRow | undefined> {
  return db
    .selectFrom('directories')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('is_default', '=', 1)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** The organisation's directories, the default one first. */
export function listDirectories(db: Queryable, scope: Scope, page: Page): Promise<DirectoryRow[]> {
  return db
    .selectFrom('directories')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('is_default', 'desc')
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}
