import type { Insertable } from 'kysely';
import { type Page, pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { insertMany } from './bulk-insert.js';
import type { ContactRow } from './contact-fields.js';
import type { MailingListMembersTable } from './contacts.tables.js';

export type MemberRow = ContactRow & { member_unsubscribed: number; contact_lookup_id: string };

/** Which members a listing returns (spec 4.3, and 4.6's optedOutContacts and bouncedContacts). */
export type MemberFilter = 'all' | 'optedOut' | 'bounced';

const contactColumns = [
  'c.id',
  'c.first_name',
  'c.last_name',
  'c.email',
  'c.phone',
  'c.ext_ref',
  'c.language',
  'c.unsubscribed',
] as const;

/**
 * One page of a list's contacts, in the order they joined it: only the columns of spec 2.4. The page is
 * cut from the membership index first and only its rows are joined to their contacts, so a deep offset
 * skips index entries, not joined rows.
 */
export function listMembers(db: Queryable, scope: Scope, listId: string, filter: MemberFilter, page: Page) {
  if (filter === 'all') {
    const pageOfMembers = db
      .selectFrom('mailing_list_members')
      .select(['contact_id', 'unsubscribed', 'added_at'])
      .where('organization_id', '=', scope.organizationId)
      .where('mailing_list_id', '=', listId)
      .orderBy('added_at')
      .orderBy('contact_id')
      .$call(pageWindow(page));
    return db
      .selectFrom(pageOfMembers.as('m'))
      .innerJoin('contacts as c', 'c.id', 'm.contact_id')
      .select([...contactColumns, 'm.unsubscribed as member_unsubscribed'])
      .orderBy('m.added_at')
      .orderBy('m.contact_id')
      .execute();
  }
  let query = db
    .selectFrom('mailing_list_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .select([...contactColumns, 'm.unsubscribed as member_unsubscribed'])
    .where('m.organization_id', '=', scope.organizationId)
    .where('m.mailing_list_id', '=', listId);
  if (filter === 'optedOut') {
    query = query.where((eb) => eb.or([eb('m.unsubscribed', '=', 1), eb('c.unsubscribed', '=', 1)]));
  }
  if (filter === 'bounced') query = query.where('c.bounced_at', 'is not', null);
  return query.orderBy('m.added_at').orderBy('m.contact_id').$call(pageWindow(page)).execute();
}

/** One page of a list's contacts with every stored field (the legacy member records carry embedded data). */
export function listMembersFull(
  db: Queryable,
  scope: Scope,
  listId: string,
  page: Page,
): Promise<MemberRow[]> {
  return db
    .selectFrom('mailing_list_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .selectAll('c')
    .select(['m.unsubscribed as member_unsubscribed', 'm.contact_lookup_id'])
    .where('m.organization_id', '=', scope.organizationId)
    .where('m.mailing_list_id', '=', listId)
    .orderBy('m.added_at')
    .orderBy('m.contact_id')
    .$call(pageWindow(page))
    .execute();
}

export function findMember(
  db: Queryable,
  scope: Scope,
  listId: string,
  contactId: string,
): Promise<MemberRow | undefined> {
  return db
    .selectFrom('mailing_list_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .selectAll('c')
    .select(['m.unsubscribed as member_unsubscribed', 'm.contact_lookup_id'])
    .where('m.organization_id', '=', scope.organizationId)
    .where('m.mailing_list_id', '=', listId)
    .where('m.contact_id', '=', contactId)
    .executeTakeFirst();
}

/**
 * Adds memberships. An existing one keeps its lookup id; its opt-out changes only for rows that set it
 * (`setUnsubscribed`), so an import without that column never re-subscribes anyone.
 */
export async function saveMembers(
  db: Queryable,
  rows: Insertable<MailingListMembersTable>[],
  setUnsubscribed: boolean,
): Promise<void> {
  const columns = [
    'organization_id',
    'mailing_list_id',
    'contact_id',
    'contact_lookup_id',
    'unsubscribed',
    'added_at',
  ] as const;
  const conflict = setUnsubscribed
    ? 'on conflict ("mailing_list_id", "contact_id") do update set "unsubscribed" = excluded."unsubscribed"'
    : 'on conflict ("mailing_list_id", "contact_id") do nothing';
  await insertMany(
    db,
    'mailing_list_members',
    columns,
    rows.map((row) => columns.map((column) => row[column])),
    conflict,
  );
}

export async function setMemberUnsubscribed(
  db: Queryable,
  scope: Scope,
  listId: string,
  contactId: string,
  unsubscribed: boolean,
): Promise<void> {
  await db
    .updateTable('mailing_list_members')
    .set({ unsubscribed: unsubscribed ? 1 : 0 })
    .where('organization_id', '=', scope.organizationId)
    .where('mailing_list_id', '=', listId)
    .where('contact_id', '=', contactId)
    .execute();
}

/** Removes the contact from the list (and the list's samples); the contact stays in the directory. */
export async function deleteMember(
  db: Queryable,
  scope: Scope,
  listId: string,
  contactId: string,
): Promise<number> {
  const org = scope.organizationId;
  await db
    .deleteFrom('sample_members')
    .where('organization_id', '=', org)
    .where('contact_id', '=', contactId)
    .where('sample_id', 'in', (eb) =>
      eb
        .selectFrom('samples')
        .select('id')
        .where('organization_id', '=', org)
        .where('mailing_list_id', '=', listId),
    )
    .execute();
  const result = await db
    .deleteFrom('mailing_list_members')
    .where('organization_id', '=', org)
    .where('mailing_list_id', '=', listId)
    .where('contact_id', '=', contactId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Which members a distribution mails (listMailMembers): the list's, narrowed to some contacts or a sample. */
export interface MailMemberQuery {
  listId: string;
  contactIds?: readonly string[];
  sampleId?: string;
  /** Keyset: contacts after this id. */
  after?: string;
  limit: number;
}

/** One batch of a list's members in contact id order, every stored field, for a distribution. */
export function listMailMembers(db: Queryable, scope: Scope, query: MailMemberQuery): Promise<MemberRow[]> {
  const org = scope.organizationId;
  let q = db
    .selectFrom('mailing_list_members as m')
    .innerJoin('contacts as c', 'c.id', 'm.contact_id')
    .selectAll('c')
    .select(['m.unsubscribed as member_unsubscribed', 'm.contact_lookup_id'])
    .where('m.organization_id', '=', org)
    .where('m.mailing_list_id', '=', query.listId);
  if (query.contactIds) q = q.where('m.contact_id', 'in', query.contactIds);
  if (query.sampleId !== undefined) {
    const sampleId = query.sampleId;
    q = q.where('m.contact_id', 'in', (eb) =>
      eb
        .selectFrom('sample_members')
        .select('contact_id')
        .where('organization_id', '=', org)
        .where('sample_id', '=', sampleId),
    );
  }
  if (query.after !== undefined) q = q.where('m.contact_id', '>', query.after);
  return q.orderBy('m.contact_id').limit(query.limit).execute();
}
