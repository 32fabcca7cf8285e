import type { SelectQueryBuilder } from 'kysely';

/** A page of a list: which rows a store reads (http/paging.ts reads it from the query and answers it). */
export interface Page {
  offset: number;
  /** The page size in force (the caller's or the call's default). */
  limit: number;
}

/**
 * A store's window onto a page, applied with `.$call(pageWindow(page))` after its `orderBy`: one row more
 * than the page holds, which `pagedResult` reads as "there is a next page".
 */
export function pageWindow(page: Page) {
  // biome-ignore lint/suspicious/noExplicitAny: any select query, whatever its tables and columns
  return <Query extends SelectQueryBuilder<any, any, any>>(query: Query): Query =>
    query.offset(page.offset).limit(page.limit + 1) as Query;
}
