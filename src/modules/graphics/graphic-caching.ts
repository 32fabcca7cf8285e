/**
 * HTTP caching of the public URL. A graphic's bytes never change under its id, so caches may keep it
 * without asking again (`immutable`); the age is a day so that a deleted graphic leaves shared caches
 * within one. After that a cache revalidates with its ETag and gets a 304.
 */
export const GRAPHIC_MAX_AGE_SECONDS = 24 * 60 * 60;

export function cacheHeaders(etag: string): Record<string, string> {
  return {
    'cache-control': `public, max-age=${GRAPHIC_MAX_AGE_SECONDS}, immutable`,
    etag,
    // The content type is the one read from the bytes: no browser may guess another (HTML, script).
    'x-content-type-options': 'nosniff',
    // Meant to be shown by other sites (webmail, embedded surveys).
    'cross-origin-resource-policy': 'cross-origin',
  };
}

/**
 * RFC 9110 13.1.2 If-None-Match: `*`, or a list of entity tags compared weakly (a `W/` prefix on either
 * side is ignored). Undefined or empty matches nothing.
 */
export function etagMatches(ifNoneMatch: string | string[] | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return [ifNoneMatch]
    .flat()
    .flatMap((header) => header.split(','))
    .some((tag) => opaque(tag) === '*' || opaque(tag) === wanted);
}
