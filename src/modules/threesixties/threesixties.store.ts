import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ThreeSixtiesTable, ThreeSixtySubjectsTable } from './threesixties.tables.js';

export type ThreeSixtyRow = Selectable<ThreeSixtiesTable>;
export type SubjectRow = Selectable<ThreeSixtySubjectsTable>;

export function findThreeSixty(db: Queryable, scope: Scope, id: string): Promise<ThreeSixtyRow | undefined> {
  return db
    .selectFrom('threesixties')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function listThreeSixties(db: Queryable, scope: Scope, page: Page): Promise<ThreeSixtyRow[]> {
  return db
    .selectFrom('threesixties')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertThreeSixty(db: Queryable, row: Insertable<ThreeSixtiesTable>): Promise<void> {
  await db.insertInto('threesixties').values(row).execute();
}

export async function updateThreeSixty(
  db: Queryable,
  scope: Scope,
  id: string,
  changes: Updateable<ThreeSixtiesTable>,
): Promise<void> {
  await db
    .updateTable('threesixties')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', id)
    .execute();
}

/** The program and everything under it. */
export async function deleteThreeSixty(db: Queryable, scope: Scope, id: string): Promise<void> {
  for (const table of ['threesixty_mails', 'threesixty_evaluators', 'threesixty_subjects'] as const)
    await db
      .deleteFrom(table)
      .where('organization_id', '=', scope.organizationId)
      .where('threesixty_id', '=', id)
      .execute();
  await db
    .deleteFrom('threesixties')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', id)
    .execute();
}

export function findSubject(
  db: Queryable,
  scope: Scope,
  threeSixtyId: string,
  subjectId: string,
): Promise<SubjectRow | undefined> {
  return db
    .selectFrom('threesixty_subjects')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('threesixty_id', '=', threeSixtyId)
    .where('id', '=', subjectId)
    .executeTakeFirst();
}

/** By one of the subject's link tokens alone (a page's link carries nothing else). */
export function findSubjectByToken(
  db: Queryable,
  column: 'open_token_hash' | 'nominate_token_hash' | 'report_token_hash',
  tokenHash: string,
): Promise<SubjectRow | undefined> {
  return db.selectFrom('threesixty_subjects').selectAll().where(column, '=', tokenHash).executeTakeFirst();
}

export function listSubjects(db: Queryable, scope: Scope, threeSixtyId: string, page?: Page) {
  return db
    .selectFrom('threesixty_subjects')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('threesixty_id', '=', threeSixtyId)
    .orderBy('created_at')
    .orderBy('id')
    .$if(page !== undefined, (q) => q.$call(pageWindow(page as Page)))
    .execute();
}

export async function insertSubject(db: Queryable, row: Insertable<ThreeSixtySubjectsTable>): Promise<void> {
  await db.insertInto('threesixty_subjects').values(row).execute();
}

export async function updateSubject(
  db: Queryable,
  scope: Scope,
  subjectId: string,
  changes: Updateable<ThreeSixtySubjectsTable>,
): Promise<void> {
  await db
    .updateTable('threesixty_subjects')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', subjectId)
    .execute();
}

/** The subject with its evaluators and mails. */
export async function deleteSubject(db: Queryable, scope: Scope, subjectId: string): Promise<void> {
  for (const table of ['threesixty_mails', 'threesixty_evaluators'] as const)
    await db
      .deleteFrom(table)
      .where('organization_id', '=', scope.organizationId)
      .where('subject_id', '=', subjectId)
      .execute();
  await db
    .deleteFrom('threesixty_subjects')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', subjectId)
    .execute();
}
