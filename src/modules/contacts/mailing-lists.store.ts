import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { MailingListsTable } from './contacts.tables.js';

export type MailingListRow = Selectable<MailingListsTable>;
export type MailingListWithCount = MailingListRow & { contact_count: number };

/** A list of the organisation; of one directory when `directoryId` is given. */
export function findList(
  db: Queryable,
  scope: Scope,
  listId: string,
  directoryId?: string,
): Promise<MailingListRow | undefined> {
  let query = db
    .selectFrom('mailing_lists')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', listId);
  if (directoryId !== undefined) query = query.where('directory_id', '=', directoryId);
  return query.executeTakeFirst();
}

/** Lists in creation order with their member counts; of one directory, or of the whole organisation. */
export function listLists(
  db: Queryable,
  scope: Scope,
  directoryId: string | undefined,
  page: Page,
): Promise<MailingListWithCount[]> {
  let query = db
    .selectFrom('mailing_lists as l')
    .selectAll('l')
    .select((eb) =>
      eb
        .selectFrom('mailing_list_members as m')
        .select(eb.fn.countAll<number>().as('n'))
        .where('m.organization_id', '=', scope.organizationId)
        .whereRef('m.mailing_list_id', '=', 'l.id')
        .as('contact_count'),
    )
    .where('l.organization_id', '=', scope.organizationId);
  if (directoryId !== undefined) query = query.where('l.directory_id', '=', directoryId);
  return query.orderBy('l.created_at').orderBy('l.id').$call(pageWindow(page)).execute() as Promise<
    MailingListWithCount[]
  >;
}

export async function countMembers(db: Queryable, scope: Scope, listId: string): Promise<number> {
  const row = await db
    .selectFrom('mailing_list_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', scope.organizationId)
    .where('mailing_list_id', '=', listId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertList(db: Queryable, row: Insertable<MailingListsTable>): Promise<void> {
  await db.insertInto('mailing_lists').values(row).execute();
}

export async function updateList(
  db: Queryable,
  scope: Scope,
  listId: string,
  changes: Updateable<MailingListsTable>,
): Promise<void> {
  await db
    .updateTable('mailing_lists')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', listId)
    .execute();
}

/** Deletes the list, its memberships and samples; the contacts stay in their directory. */
export async function deleteList(db: Queryable, scope: Scope, listId: string): Promise<void> {
  const org = scope.organizationId;
  await db
    .deleteFrom('sample_members')
    .where('organization_id', '=', org)
    .where('sample_id', 'in', (eb) =>
      eb
        .selectFrom('samples')
        .select('id')
        .where('organization_id', '=', org)
        .where('mailing_list_id', '=', listId),
    )
    .execute();
  for (const table of ['samples', 'mailing_list_members'] as const) {
    await db
      .deleteFrom(table)
      .where('organization_id', '=', org)
      .where('mailing_list_id', '=', listId)
      .execute();
  }
  await db.deleteFrom('mailing_lists').where('organization_id', '=', org).where('id', '=', listId).execute();
}
