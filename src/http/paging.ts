import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Page } from '../db/page.js';
import { originOf } from './origin.js';

/**
 * The largest offset taken: the largest exact integer. Both engines take it (PostgreSQL's OFFSET is a
 * bigint, SQLite's 64-bit); past it `1e308` or `99999999999999999999` made them fail with a 500.
 */
export const MAX_OFFSET = Number.MAX_SAFE_INTEGER;

/** Query parameters of a paged call: `offset` always, `pageSize` where the call takes one. */
export function PagingQuery(options: { defaultSize?: number; maxSize?: number } = {}) {
  return Type.Object({
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Starting offset.' }),
    ),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: options.maxSize ?? 1000,
        default: options.defaultSize ?? 100,
        description: `Records per page, 1 to ${options.maxSize ?? 1000}.`,
      }),
    ),
  });
}

export function PagedList<T extends TSchema>(element: T) {
  return Type.Object({ elements: Type.Array(element), nextPage: Type.Union([Type.String(), Type.Null()]) });
}

export function pageOf(query: { offset?: number; pageSize?: number }, defaultSize = 100): Page {
  return { offset: query.offset ?? 0, limit: query.pageSize ?? defaultSize };
}

/**
 * Stores are asked for `limit + 1` rows (`pageWindow`); the extra row only tells whether a next page exists.
 * nextPage is an absolute URL built from the request (proxy headers honoured when trusted), keeping the
 * caller's other query parameters, so a client can follow it verbatim (COMPAT.md "Paging").
 */
export function pagedResult<T>(
  request: FastifyRequest,
  page: Page,
  rowsPlusOne: T[],
): { elements: T[]; nextPage: string | null } {
  const hasMore = rowsPlusOne.length > page.limit;
  const elements = hasMore ? rowsPlusOne.slice(0, page.limit) : rowsPlusOne;
  return { elements, nextPage: hasMore ? nextPageUrl(request, page.offset + page.limit) : null };
}

export function nextPageUrl(request: FastifyRequest, nextOffset: number): string {
  // Concatenated, not resolved: a path that starts with a doubled slash must not read as a host.
  const url = new URL(`${originOf(request)}${request.url}`);
  url.searchParams.set('offset', String(nextOffset));
  return url.toString();
}
