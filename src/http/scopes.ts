/**
 * OAuth scopes (COMPAT.md "Users and the rest": `manage:all`, `read:surveys`, `read:survey_responses`,
 * `write:mailing_list_contacts`). Every /API/v3 route belongs to one family, found by its path in the one
 * table below; a GET or HEAD needs `read:<family>`, any other method `write:<family>`, and `manage:all`
 * covers every family. A route in no family is refused to every OAuth token (a test keeps the table whole).
 */
export const SCOPE_FAMILIES = [
  'organizations',
  'users',
  'divisions',
  'groups',
  'library_messages',
  'event_subscriptions',
  'directories',
  'directory_contacts',
  'mailing_lists',
  'mailing_list_contacts',
  'surveys',
  'survey_responses',
  'distributions',
  'graphics',
  'oauth_clients',
  'threesixties',
] as const;
export type ScopeFamily = (typeof SCOPE_FAMILIES)[number];

export const MANAGE_ALL = 'manage:all';

/** Every scope a client may be given, `manage:all` first. */
export const SCOPES: readonly string[] = [
  MANAGE_ALL,
  ...SCOPE_FAMILIES.flatMap((family) => [`read:${family}`, `write:${family}`]),
];

/**
 * Route path prefixes below `/API/v3`, `:` standing for any path parameter; the longest prefix that
 * matches a route wins, so a sub-resource can belong to a family of its own.
 */
const ROUTE_FAMILIES: Record<string, ScopeFamily> = {
  '/organizations': 'organizations',
  '/whoami': 'users',
  '/users': 'users',
  '/divisions': 'divisions',
  '/groups': 'groups',
  '/libraries': 'library_messages',
  '/messages': 'library_messages',
  '/eventsubscriptions': 'event_subscriptions',
  '/directories': 'directories',
  '/directories/:/contacts': 'directory_contacts',
  '/directories/:/mailinglists': 'mailing_lists',
  '/directories/:/mailinglists/:/contacts': 'mailing_list_contacts',
  '/directories/:/mailinglists/:/contactimports': 'mailing_list_contacts',
  '/directories/:/mailinglists/:/bouncedContacts': 'mailing_list_contacts',
  '/directories/:/mailinglists/:/optedOutContacts': 'mailing_list_contacts',
  '/mailinglists': 'mailing_lists',
  '/mailinglists/:/contacts': 'mailing_list_contacts',
  '/mailinglists/:/contactimports': 'mailing_list_contacts',
  '/mailinglists/:/samples': 'mailing_list_contacts',
  '/surveys': 'surveys',
  '/survey-definitions': 'surveys',
  '/surveys/:/responses': 'survey_responses',
  '/surveys/:/export-responses': 'survey_responses',
  '/surveys/:/import-responses': 'survey_responses',
  '/surveys/:/update-responses': 'survey_responses',
  '/surveys/:/sessions': 'survey_responses',
  '/responses': 'survey_responses',
  '/responseexports': 'survey_responses',
  '/responseimports': 'survey_responses',
  '/distributions': 'distributions',
  '/graphics': 'graphics',
  '/oauth-clients': 'oauth_clients',
  '/threesixties': 'threesixties',
};

/** Longest first, as segment lists. */
const PREFIXES = Object.entries(ROUTE_FAMILIES)
  .map(([prefix, family]) => ({ segments: prefix.split('/').slice(1), family }))
  .sort((a, b) => b.segments.length - a.segments.length);

/** `/API/v3/surveys/:surveyId/responses` (or under `/API/API/v3`, spec 4.6) → `['surveys', ':', 'responses']`. */
function segmentsOf(routeUrl: string): string[] | undefined {
  const match = /^(?:\/API)+\/v3(\/.*)$/.exec(routeUrl);
  if (!match?.[1]) return undefined;
  return match[1]
    .split('/')
    .slice(1)
    .map((segment) => (segment.startsWith(':') ? ':' : segment));
}

const familyCache = new Map<string, ScopeFamily | undefined>();

/** The family of a route (by its registered URL, `:param` and all); undefined when it has none. */
export function familyOf(routeUrl: string): ScopeFamily | undefined {
  if (familyCache.has(routeUrl)) return familyCache.get(routeUrl);
  const segments = segmentsOf(routeUrl);
  const found = segments
    ? PREFIXES.find((prefix) => prefix.segments.every((segment, i) => segments[i] === segment))?.family
    : undefined;
  familyCache.set(routeUrl, found);
  return found;
}

/** The scope a call needs: `read:<family>` for GET and HEAD, `write:<family>` for the rest. */
export function scopeFor(method: string, routeUrl: string): string | undefined {
  const family = familyOf(routeUrl);
  if (!family) return undefined;
  return `${method === 'GET' || method === 'HEAD' ? 'read' : 'write'}:${family}`;
}

/** `manage:all` covers every scope; any other scope covers itself. */
export function covers(granted: readonly string[], needed: string): boolean {
  return granted.includes(MANAGE_ALL) || granted.includes(needed);
}
