import type { Deps } from '../../deps.js';
import { tokenOfPeer } from '../../http/datacenter.js';
import { ApiError } from '../../http/errors.js';
import type { Principal, UserType } from '../../http/principal.js';
import { hashSecret, sameHash } from '../../secret-hash.js';
import {
  basicCredentials,
  type ClientAuthentication,
  datacenterOfAccessToken,
  grantedScopes,
  newAccessToken,
  TOKEN_LIFETIME_S,
} from './credentials.js';
import { scopeList, type TokenAnswer, type TokenRequest } from './oauth.schemas.js';
import * as store from './oauth.store.js';
import { OAuthError } from './oauth-error.js';

/**
 * RFC 6749 2.3.1: the client authenticates with HTTP Basic or with `client_id` and `client_secret` in the
 * form, not both (a `client_id` that repeats the Basic one is tolerated: some libraries send it).
 */
function clientAuthentication(form: TokenRequest, authorization: string | undefined): ClientAuthentication {
  const basic = basicCredentials(authorization);
  if (basic) {
    if (
      form.client_secret !== undefined ||
      (form.client_id !== undefined && form.client_id !== basic.clientId)
    )
      throw new OAuthError('invalid_request', 'Authenticate the client one way: HTTP Basic or form fields.');
    return basic;
  }
  if (!form.client_id || !form.client_secret)
    throw new OAuthError(
      'invalid_client',
      'Client authentication is required: HTTP Basic, or client_id and client_secret in the form.',
    );
  return { clientId: form.client_id, clientSecret: form.client_secret };
}

/** The client, if its secret is right and the user it acts as may still call. */
async function authenticateClient(deps: Deps, credentials: ClientAuthentication) {
  const client = await store.findClientCredentials(deps.db, credentials.clientId);
  if (!client || !sameHash(client.secret_hash, hashSecret(credentials.clientSecret)))
    throw new OAuthError('invalid_client', 'Client authentication failed.');
  if (!mayCall(deps, client))
    throw new OAuthError('invalid_client', 'The user this client acts as is disabled or expired.');
  return client;
}

function mayCall(deps: Deps, user: { account_status: string; account_expiration_date: string | null }) {
  if (user.account_status !== 'active') return false;
  return !user.account_expiration_date || new Date(user.account_expiration_date) > deps.clock.now();
}

/**
 * The token's prefix names the organisation's data center when that is a configured peer (one database
 * shared by several), else this one: the token then works where the organisation is served.
 */
function issuingDatacenter(deps: Deps, datacenter: string | null): string {
  return datacenter && deps.config.datacenterPeers?.[datacenter] ? datacenter : deps.config.datacenter;
}

/** `POST /oauth2/token` with `grant_type=client_credentials` (RFC 6749 4.4): a bearer token for an hour. */
export async function issueToken(
  deps: Deps,
  form: TokenRequest,
  authorization: string | undefined,
): Promise<TokenAnswer> {
  if (form.grant_type === undefined || form.grant_type === '')
    throw new OAuthError('invalid_request', 'grant_type is required.');
  const credentials = clientAuthentication(form, authorization);
  const client = await authenticateClient(deps, credentials);
  if (form.grant_type !== 'client_credentials')
    throw new OAuthError('unsupported_grant_type', 'Only grant_type=client_credentials is supported.');
  const scopes = grantedScopes(form.scope, scopeList(client.scopes));
  const token = newAccessToken(issuingDatacenter(deps, client.datacenter));
  const now = deps.clock.now();
  const scope = { organizationId: client.organization_id };
  await deps.db.transaction().execute(async (trx) => {
    await store.deleteExpiredTokens(trx, scope, credentials.clientId, now.toISOString());
    await store.insertToken(trx, {
      token_hash: hashSecret(token),
      organization_id: client.organization_id,
      client_id: credentials.clientId,
      scopes: scopes.join(' '),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_S * 1000).toISOString(),
      created_at: now.toISOString(),
    });
  });
  return { access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, scope: scopes.join(' ') };
}

/**
 * The authentication hook's lookup of an OAuth access token, on every call it makes; writes nothing. A
 * token of a configured peer data center is a 401 naming that peer's host; an expired one a 401 saying so.
 */
export async function principalForAccessToken(deps: Deps, token: string): Promise<Principal | undefined> {
  const issuer = datacenterOfAccessToken(token);
  if (!issuer) return undefined;
  if (issuer !== deps.config.datacenter) {
    const elsewhere = tokenOfPeer(deps.config, issuer);
    if (elsewhere) throw elsewhere;
    return undefined;
  }
  const tokenHash = hashSecret(token);
  const owner = await store.findAccessTokenOwner(deps.db, tokenHash);
  if (!owner || !sameHash(owner.token_hash, tokenHash)) return undefined;
  if (new Date(owner.expires_at) <= deps.clock.now())
    throw ApiError.of('FW_TOK_1', 'The access token has expired; request a new one at /oauth2/token.');
  if (!mayCall(deps, owner)) return undefined;
  return {
    userId: owner.user_id,
    organizationId: owner.organization_id,
    userType: owner.user_type as UserType,
    targetAudience: owner.target_audience === 1,
    scopes: scopeList(owner.scopes),
    ...(owner.datacenter ? { datacenter: owner.datacenter } : {}),
  };
}
