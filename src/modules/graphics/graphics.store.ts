import type { Insertable, Selectable } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { GraphicsTable } from './graphics.tables.js';

export type GraphicRow = Selectable<GraphicsTable>;

export function findGraphic(db: Queryable, scope: Scope, graphicId: string): Promise<GraphicRow | undefined> {
  return db
    .selectFrom('graphics')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', graphicId)
    .executeTakeFirst();
}

/**
 * For the public URL, by id alone: the link is all a mail reader or a respondent has, and the id's 15
 * random characters (about 89 bits) are what keeps an image unguessable. Hence ids are unique on the
 * server (the primary key), an id kept from Qualtrics (`graphicId`) included: the upload checks here.
 */
export function findGraphicById(db: Queryable, graphicId: string): Promise<GraphicRow | undefined> {
  return db.selectFrom('graphics').selectAll().where('id', '=', graphicId).executeTakeFirst();
}

/** Which of `graphicIds` are graphics of the organisation (a page's texts name them). */
export async function listGraphicIds(db: Queryable, scope: Scope, graphicIds: string[]): Promise<string[]> {
  if (graphicIds.length === 0) return [];
  const rows = await db
    .selectFrom('graphics')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('id', 'in', graphicIds)
    .execute();
  return rows.map((row) => row.id);
}

export async function insertGraphic(db: Queryable, row: Insertable<GraphicsTable>): Promise<void> {
  await db.insertInto('graphics').values(row).execute();
}

export async function deleteGraphic(db: Queryable, scope: Scope, graphicId: string): Promise<void> {
  await db
    .deleteFrom('graphics')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', graphicId)
    .execute();
}
