import type { FastifyRequest } from 'fastify';
import { nextPageUrl, pagedResult } from '../../http/paging.js';
import { type DirectoryContact, toDirectoryContact } from './contacts.schemas.js';
import { type DirectoryPaging, skipTokenOf } from './directory-contacts.service.js';
import type { PlacedContactRow } from './directory-contacts.store.js';

/**
 * A page of a directory's contacts as the list call answers it (rows: one more than the page holds).
 * Offset paging answers as every paged call does; skipToken paging puts the place of the page's last
 * contact in nextPage instead of an offset, keeping the caller's other parameters.
 */
export function directoryPage(
  request: FastifyRequest,
  paging: DirectoryPaging,
  rowsPlusOne: PlacedContactRow[],
): { elements: DirectoryContact[]; nextPage: string | null } {
  if (paging.scheme === 'offset') {
    const page = { offset: paging.offset, limit: paging.limit };
    return pagedResult(request, page, rowsPlusOne.map(toDirectoryContact));
  }
  const rows = rowsPlusOne.slice(0, paging.limit);
  const last = rows.at(-1);
  if (rowsPlusOne.length <= paging.limit || !last)
    return { elements: rows.map(toDirectoryContact), nextPage: null };
  const url = new URL(nextPageUrl(request, 0));
  url.searchParams.delete('offset');
  url.searchParams.set('skipToken', skipTokenOf(last));
  return { elements: rows.map(toDirectoryContact), nextPage: url.toString() };
}
