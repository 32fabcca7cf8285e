/**
 * The 360's links, at the server root beside the survey pages. Each carries a 40-character token of which
 * only the SHA-256 is stored; the token follows an `/l/` segment, so request logs redact it as they do an
 * individual survey link's (http/redact-url.ts).
 */
import { randomAlphanumeric } from '../../http/ids.js';
import { hashSecret } from '../../secret-hash.js';

export type LinkKind = 'evaluate' | 'open' | 'nominate' | 'report';

export const LINK_PREFIX = '/jfe/360';
export const TOKEN_PATTERN = /^[A-Za-z0-9]{40}$/;

export const linkUrl = (base: string, kind: LinkKind, token: string) =>
  `${base}${LINK_PREFIX}/${kind}/l/${token}`;

/** A new link token and the hash to store. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomAlphanumeric(40);
  return { token, hash: hashSecret(token) };
}

/** The hash to look a link's token up by, or undefined when it cannot be one of ours. */
export const tokenHashOf = (token: string) => (TOKEN_PATTERN.test(token) ? hashSecret(token) : undefined);
