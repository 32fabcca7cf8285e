import { pageWindow } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import type { ContactRow } from './contact-fields.js';

/** A contact's place in its directory's order (migration 0017): what a skipToken holds. */
export interface ContactPlace {
  seq: number;
  id: string;
}

/**
 * Which page of a directory to read: the rows after a place (skipToken; `after: null` from the start),
 * or the rows from an offset. Both in the order contacts were added, so neither shifts as contacts are.
 */
export type DirectoryWindow =
  | { after: ContactPlace | null; limit: number }
  | { offset: number; limit: number };

export type PlacedContactRow = ContactRow & ContactPlace;

/** One page of the directory's contacts, one row more than the page holds (`pagedResult` reads it). */
export function listDirectoryContacts(
  db: Queryable,
  scope: Scope,
  directoryId: string,
  window: DirectoryWindow,
): Promise<PlacedContactRow[]> {
  let query = db
    .selectFrom('contacts')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('directory_id', '=', directoryId)
    .orderBy('seq')
    .orderBy('id');
  if ('offset' in window) return query.$call(pageWindow(window)).execute();
  const { after } = window;
  if (after !== null)
    query = query.where((eb) => eb(eb.refTuple('seq', 'id'), '>', eb.tuple(after.seq, after.id)));
  return query.limit(window.limit + 1).execute();
}

export interface MembershipRow {
  mailing_list_id: string;
  name: string;
  owner_id: string;
  contact_lookup_id: string;
  unsubscribed: number;
  added_at: string;
}

/** The mailing lists the contact is in, with its recipient id and opt-out in each. */
export function listMemberships(db: Queryable, scope: Scope, contactId: string): Promise<MembershipRow[]> {
  return db
    .selectFrom('mailing_list_members as m')
    .innerJoin('mailing_lists as l', 'l.id', 'm.mailing_list_id')
    .select([
      'm.mailing_list_id',
      'l.name',
      'l.owner_id',
      'm.contact_lookup_id',
      'm.unsubscribed',
      'm.added_at',
    ])
    .where('m.organization_id', '=', scope.organizationId)
    .where('l.organization_id', '=', scope.organizationId)
    .where('m.contact_id', '=', contactId)
    .orderBy('m.added_at')
    .orderBy('m.mailing_list_id')
    .execute();
}
