/**
 * A request URL as a log line may keep it. Secrets that travel in URLs are replaced by `[redacted]`:
 * - the token of an individual link, `/jfe/form/{SurveyID}/l/{token}` (docs/engine.md): whoever holds it
 *   answers as that contact. The database keeps only its hash, and the log must not keep more. Any
 *   `/l/` segment is taken, however written (`//l//`, `%6C`, another case), since the router takes those too.
 * - the value of a query parameter whose name says token, secret, password, API key or signature: no
 *   route of ours takes one, but a client may send one (`?access_token=`), and a 404 is logged too.
 * Everything else stays as sent, so a line still says which survey, which route, which page.
 */
export const REDACTED = '[redacted]';

const LINK_TOKEN = /(\/(?:l|%6c)\/+)[^/?#]+/gi;
const SECRET_NAME = /token|secret|passw(or)?d|api[-_]?key|signature/i;

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // Most URLs carry neither: two scans and no copy on the request path.
  const redactedPath = /\/(l|%6c)\//i.test(path) ? path.replace(LINK_TOKEN, `$1${REDACTED}`) : path;
  if (query === -1) return redactedPath;
  return `${redactedPath}?${redactQuery(url.slice(query + 1))}`;
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      return SECRET_NAME.test(decoded(pair.slice(0, equals))) ? `${pair.slice(0, equals)}=${REDACTED}` : pair;
    })
    .join('&');
}

function decoded(name: string): string {
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}
