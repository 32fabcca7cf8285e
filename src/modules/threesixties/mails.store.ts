import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ThreeSixtyMailsTable } from './threesixties.tables.js';

export type MailRow = Selectable<ThreeSixtyMailsTable>;

export function findMail(db: Queryable, scope: Scope, mailId: string): Promise<MailRow | undefined> {
  return db
    .selectFrom('threesixty_mails')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', mailId)
    .executeTakeFirst();
}

/** Mails of a program in a status (held mails, when the program is activated). */
export function listMailIds(db: Queryable, scope: Scope, threeSixtyId: string, status: string) {
  return db
    .selectFrom('threesixty_mails')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('threesixty_id', '=', threeSixtyId)
    .where('status', '=', status)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The last mail of an evaluator or subject of a kind, for the nomination and subject records. */
export function findLatestMail(db: Queryable, scope: Scope, kind: string, ownerId: string) {
  return db
    .selectFrom('threesixty_mails')
    .select(['status', 'sent_at'])
    .where('organization_id', '=', scope.organizationId)
    .where('kind', '=', kind)
    .where(kind === 'invitation' ? 'evaluator_id' : 'subject_id', '=', ownerId)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
}

export async function insertMail(db: Queryable, row: Insertable<ThreeSixtyMailsTable>): Promise<void> {
  await db.insertInto('threesixty_mails').values(row).execute();
}

/** Changes a mail whose status is one of `from`; answers how many rows changed (0 or 1). */
export async function updateMail(
  db: Queryable,
  scope: Scope,
  mailId: string,
  changes: Updateable<ThreeSixtyMailsTable>,
  from: readonly string[],
): Promise<number> {
  const result = await db
    .updateTable('threesixty_mails')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', mailId)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
