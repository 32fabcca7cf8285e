import type { Page } from '../../db/page.js';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import {
  listRecipientResponses,
  type RecipientResponse,
  recipientResponseStats,
} from '../responses/recipient-responses.service.js';
import type { ContactRow } from './contact-fields.js';
import { getDirectoryContact } from './contacts.service.js';
import { requireDirectory } from './directories.service.js';
import {
  type ContactPlace,
  type DirectoryWindow,
  listDirectoryContacts,
  listMemberships,
  type MembershipRow,
  type PlacedContactRow,
} from './directory-contacts.store.js';

/** How a caller pages a directory (issue 15 part 4): the real service's skipToken scheme, or offset. */
export type DirectoryPaging =
  | { scheme: 'skipToken'; skipToken: string | undefined; limit: number }
  | { scheme: 'offset'; offset: number; limit: number };

/**
 * The scheme a list call asks for: skipToken when it gives one or asks for the new scheme
 * (`useNewPaginationScheme=true`, as the real service's clients do), offset otherwise. A skipToken
 * already says where to start: an offset beside it is refused rather than guessed at.
 */
export function directoryPaging(query: {
  offset?: number;
  pageSize?: number;
  skipToken?: string;
  useNewPaginationScheme?: boolean;
}): DirectoryPaging {
  const limit = query.pageSize ?? 100;
  if (query.skipToken === undefined && query.useNewPaginationScheme !== true)
    return { scheme: 'offset', offset: query.offset ?? 0, limit };
  if (query.skipToken !== undefined && (query.offset ?? 0) > 0)
    throw ApiError.invalid('offset', 'cannot be given with skipToken');
  return { scheme: 'skipToken', skipToken: query.skipToken, limit };
}

/** `GET /v3/directories/{directoryId}/contacts`: one page, one row more than it holds. */
export async function listContactsOfDirectory(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  paging: DirectoryPaging,
): Promise<PlacedContactRow[]> {
  const window: DirectoryWindow =
    paging.scheme === 'offset'
      ? { offset: paging.offset, limit: paging.limit }
      : {
          after: paging.skipToken === undefined ? null : placeOfToken(paging.skipToken),
          limit: paging.limit,
        };
  await requireDirectory(deps.db, principal, directoryId);
  return listDirectoryContacts(deps.db, principal, directoryId, window);
}

/**
 * A skipToken is the place of the last contact of a page, opaque to the caller: base64url of
 * `<seq>.<contactId>`. Reading on from it never repeats a contact and never skips one that was there.
 */
export function skipTokenOf(place: ContactPlace): string {
  return Buffer.from(`${place.seq}.${place.id}`, 'utf8').toString('base64url');
}

function placeOfToken(token: string): ContactPlace {
  const match = /^(\d{1,15})\.([A-Za-z0-9_]{1,100})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!/^[A-Za-z0-9_-]+$/.test(token) || !match)
    throw ApiError.invalid('skipToken', 'is not a token this service gave (follow nextPage)');
  return { seq: Number(match[1]), id: match[2] as string };
}

/** The whole record of a directory contact: its lists (with its recipient id in each) and its stats. */
export interface DirectoryContactRecord {
  row: ContactRow;
  memberships: MembershipRow[];
  stats: { responseCount: number; lastResponseDate: string | null };
}

export async function getDirectoryContactRecord(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  contactId: string,
): Promise<DirectoryContactRecord> {
  const row = await getDirectoryContact(deps, principal, directoryId, contactId);
  const memberships = await listMemberships(deps.db, principal, row.id);
  const stats = await recipientResponseStats(deps.db, principal, row.id);
  return { row, memberships, stats };
}

/** The kinds of history served: the responses the contact gave (see docs/contacts.md). */
export const HISTORY_TYPES = ['response'] as const;

/** `GET …/contacts/{contactId}/history`: one page of the contact's responses, newest first. */
export async function listContactHistory(
  deps: Deps,
  principal: Principal,
  directoryId: string,
  contactId: string,
  page: Page,
): Promise<RecipientResponse[]> {
  const row = await getDirectoryContact(deps, principal, directoryId, contactId);
  return listRecipientResponses(deps.db, principal, row.id, page);
}
