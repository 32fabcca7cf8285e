import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import { dialectOf } from '../../db/dialect/index.js';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { Database } from '../../tables.js';
import { insertMany } from './bulk-insert.js';
import type { ContactRow } from './contact-fields.js';
import type { ContactSearch } from './contacts.schemas.js';
import type { ContactsTable } from './contacts.tables.js';

/** Rows per statement when writing or matching in bulk: well under both engines' parameter limits. */
export const BATCH_ROWS = 1000;

/** A contact of the organisation by id: in the given directory, or in any (`undefined`). */
export function findContact(
  db: Queryable,
  scope: Scope,
  directoryId: string | undefined,
  contactId: string,
): Promise<ContactRow | undefined> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .$if(directoryId !== undefined, (query) => query.where('directory_id', '=', directoryId ?? ''))
    .where('id', '=', contactId)
    .executeTakeFirst();
}

/** Contacts of the directory whose extRef is one of `extRefs`. */
export function listByExtRefs(
  db: Queryable,
  scope: Scope,
  directoryId: string,
  extRefs: string[],
): Promise<ContactRow[]> {
  if (extRefs.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('directory_id', '=', directoryId)
    .where('ext_ref', 'in', extRefs)
    .execute();
}

/** Contacts of the directory whose lower-cased email is one of `keys`, oldest first. */
export function listByEmailKeys(
  db: Queryable,
  scope: Scope,
  directoryId: string,
  keys: string[],
): Promise<ContactRow[]> {
  if (keys.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('directory_id', '=', directoryId)
    .where('email_key', 'in', keys)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/**
 * Writes new and changed contacts, a statement per 1,000: an upsert on the id, so the caller's rows
 * (already merged with what was stored) replace the stored ones. Each id appears once. Each statement
 * draws one number of `contact_seq` and numbers its rows from it (migration 0017): a new contact sorts
 * after every contact there was; a changed one keeps its place (the conflict clause leaves `seq` alone).
 */
export async function saveContacts(db: Queryable, rows: ContactRow[]): Promise<void> {
  for (let first = 0; first < rows.length; first += SEQ_BLOCK) {
    const batch = rows.slice(first, first + SEQ_BLOCK);
    const [value] = await dialectOf(db).nextSequenceValues(db, CONTACT_SEQUENCE, 1);
    const base = (value as number) * SEQ_BLOCK;
    await insertMany(
      db,
      'contacts',
      SAVED_COLUMNS,
      batch.map((row, n) => [...CONTACT_COLUMNS.map((column) => row[column]), base + n]),
      SAVE_CONFLICT,
    );
  }
}

const CONTACT_SEQUENCE = 'contact_seq';
/** Rows numbered from one sequence value. */
const SEQ_BLOCK = BATCH_ROWS;

/** Every column of a contact row, in the order bulk inserts write them. */
export const CONTACT_COLUMNS = [
  'id',
  'organization_id',
  'directory_id',
  'first_name',
  'last_name',
  'email',
  'email_key',
  'phone',
  'ext_ref',
  'language',
  'unsubscribed',
  'bounced_at',
  'embedded_data',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof ContactRow)[];

/** What `saveContacts` writes: every column of the row, then its place in the directory's order. */
const SAVED_COLUMNS = [...CONTACT_COLUMNS, 'seq'] as const;

/** A saved row replaces the stored one, all but its identity and creation date. */
const SAVE_CONFLICT = `on conflict ("id") do update set ${CONTACT_COLUMNS.filter(
  (column) => !['id', 'organization_id', 'directory_id', 'created_at'].includes(column),
)
  .map((column) => `"${column}" = excluded."${column}"`)
  .join(', ')}`;

export async function updateContact(
  db: Queryable,
  scope: Scope,
  contactId: string,
  changes: Updateable<ContactsTable>,
): Promise<void> {
  await db
    .updateTable('contacts')
    .set(changes)
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', contactId)
    .execute();
}

/** Removes the contact from its directory, its lists and its samples. */
export async function deleteContact(db: Queryable, scope: Scope, contactId: string): Promise<void> {
  for (const table of ['sample_members', 'mailing_list_members'] as const) {
    await db
      .deleteFrom(table)
      .where('organization_id', '=', scope.organizationId)
      .where('contact_id', '=', contactId)
      .execute();
  }
  await db
    .deleteFrom('contacts')
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', contactId)
    .execute();
}

export async function countByDirectory(db: Queryable, scope: Scope): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('contacts')
    .select(['directory_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('organization_id', '=', scope.organizationId)
    .groupBy('directory_id')
    .execute();
  return new Map(rows.map((row) => [row.directory_id, Number(row.count)]));
}

/** A directory's contacts matching every given filter, in creation order. */
export function searchContacts(
  db: Queryable,
  scope: Scope,
  directoryId: string,
  filter: ContactSearch,
  page: Page,
): Promise<ContactRow[]> {
  return db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('directory_id', '=', directoryId)
    .where((eb) => eb.and(searchConditions(db, eb, filter)))
    .orderBy('created_at')
    .orderBy('id')
    .$call(pageWindow(page))
    .execute();
}

function searchConditions(
  db: Queryable,
  eb: ExpressionBuilder<Database, 'contacts'>,
  filter: ContactSearch,
): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (filter.email !== undefined) conditions.push(eb('email_key', '=', filter.email.trim().toLowerCase()));
  if (filter.extRef !== undefined) conditions.push(eb('ext_ref', '=', filter.extRef));
  if (filter.language !== undefined) conditions.push(eb('language', '=', filter.language));
  if (filter.unsubscribed !== undefined)
    conditions.push(eb('unsubscribed', '=', filter.unsubscribed ? 1 : 0));
  if (filter.name !== undefined) {
    const fullName = sql<string>`lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))`;
    conditions.push(
      sql<SqlBool>`${fullName} like ${`%${escapeLike(filter.name.toLowerCase())}%`} escape '\\'`,
    );
  }
  for (const [key, value] of Object.entries(filter.embeddedData ?? {})) {
    conditions.push(sql<SqlBool>`${embeddedValue(db, key)} = ${value}`);
  }
  return conditions;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * One embedded-data field's value: the engines spell JSON access differently (STYLE.md: a named
 * override, not scattered ifs). Keys never contain quotes or backslashes (the schema refuses them).
 */
// biome-ignore lint/suspicious/noExplicitAny: works on any database type
function embeddedValue(db: Kysely<any>, key: string) {
  return dialectOf(db).jsonField('embedded_data', key);
}
