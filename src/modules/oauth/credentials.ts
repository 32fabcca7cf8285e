import { randomBytes } from 'node:crypto';
import { randomAlphanumeric } from '../../http/ids.js';
import { covers, SCOPES } from '../../http/scopes.js';
import { OAuthError } from './oauth-error.js';

/** An access token lasts an hour (COMPAT.md: `expires_in: 3600`). */
export const TOKEN_LIFETIME_S = 3600;

/** A client id: 32 hex characters, the shape the real service's client ids have. */
export function newClientId(): string {
  return randomBytes(16).toString('hex');
}

/** A client secret: 64 characters of [A-Za-z0-9], about 381 random bits, shown once. */
export function newClientSecret(): string {
  return randomAlphanumeric(64);
}

/**
 * An access token: the data center that issued it, a dot, then 256 random bits in base64url
 * (`fra1.Q2x…`). A dot never appears in a 40-character API token, so the two never mix; the prefix lets a
 * data center that does not hold the token name the one that does without asking anyone (decision 0011).
 */
export function newAccessToken(datacenter: string): string {
  return `${datacenter}.${randomBytes(32).toString('base64url')}`;
}

const ACCESS_TOKEN = /^([a-z][a-z0-9]{1,15})\.[A-Za-z0-9_-]{43}$/;

/** The issuing data center of a well-formed access token; undefined for anything else. */
export function datacenterOfAccessToken(token: string): string | undefined {
  return ACCESS_TOKEN.exec(token)?.[1];
}

export interface ClientAuthentication {
  clientId: string;
  clientSecret: string;
}

/** RFC 6749 2.3.1: id and secret are form-encoded before they are joined and Base64-encoded. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not form-encoded text.');
  }
}

/** `Authorization: Basic base64(id:secret)`; undefined when the header is absent or another scheme. */
export function basicCredentials(header: string | undefined): ClientAuthentication | undefined {
  const match = /^basic\s+(\S*)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new OAuthError('invalid_client', 'The Basic credentials are not client_id:client_secret.');
  return {
    clientId: formDecode(decoded.slice(0, colon)),
    clientSecret: formDecode(decoded.slice(colon + 1)),
  };
}

/**
 * RFC 6749 3.3: `scope` is space-separated; each one asked for must be known and within the client's
 * (which `manage:all` covers entirely). Asked for nothing, the client gets all of its own.
 */
export function grantedScopes(requested: string | undefined, clientScopes: readonly string[]): string[] {
  if (requested === undefined || requested.trim() === '') return [...clientScopes];
  const asked = [...new Set(requested.split(' ').filter((scope) => scope !== ''))];
  for (const scope of asked) {
    if (!SCOPES.includes(scope)) throw new OAuthError('invalid_scope', `Unknown scope: ${scope}.`);
    if (!covers(clientScopes, scope))
      throw new OAuthError('invalid_scope', `The client was not given the scope ${scope}.`);
  }
  return asked;
}
