import type { Insertable, Selectable, Updateable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { LibraryMessagesTable } from './messages.tables.js';

export type MessageRow = Selectable<LibraryMessagesTable>;
export type MessageSummaryRow = Pick<MessageRow, 'id' | 'library_id' | 'description' | 'category'>;

/** One message of the organisation; in `libraryId` only, when given. */
export function findMessage(
  db: Queryable,
  scope: Scope,
  messageId: string,
  libraryId?: string,
): Promise<MessageRow | undefined> {
  return db
    .selectFrom('library_messages')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', messageId)
    .$if(libraryId !== undefined, (q) => q.where('library_id', '=', libraryId as string))
    .executeTakeFirst();
}

/** A library's messages in creation order, without their (possibly large) HTML. */
export function listMessages(
  db: Queryable,
  scope: Scope,
  libraryId: string,
  filter: { category?: string },
  page: Page,
): Promise<MessageSummaryRow[]> {
  return db
    .selectFrom('library_messages')
    .select(['id', 'library_id', 'description', 'category'])
    .where('organization_id', '=', scope.organizationId)
    .where('library_id', '=', libraryId)
    .$if(filter.category !== undefined, (q) => q.where('category', '=', filter.category as string))
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

export async function insertMessage(db: Queryable, row: Insertable<LibraryMessagesTable>): Promise<void> {
  await db.insertInto('library_messages').values(row).execute();
}

export async function updateMessage(
  db: Queryable,
  scope: Scope,
  messageId: string,
  changes: Updateable<Omit<LibraryMessagesTable, 'id' | 'organization_id' | 'library_id' | 'created_at'>>,
): Promise<number> {
  const result = await db
    .updateTable('library_messages')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', messageId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function deleteMessage(db: Queryable, scope: Scope, messageId: string): Promise<number> {
  const result = await db
    .deleteFrom('library_messages')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', messageId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
