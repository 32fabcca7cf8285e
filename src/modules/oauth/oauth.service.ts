import { isoSeconds } from '../../clock.js';
import type { Page } from '../../db/page.js';
import type { Scope } from '../../db/scope.js';
import type { Deps, Queryable } from '../../deps.js';
import { ApiError } from '../../http/errors.js';
import { type Principal, requireBrandAdmin } from '../../http/principal.js';
import { covers, SCOPES } from '../../http/scopes.js';
import { hashSecret } from '../../secret-hash.js';
import { findSelectedUser, type UserSelector } from '../users/operator.service.js';
import { allUsersInScope } from '../users/users.service.js';
import { newClientId, newClientSecret } from './credentials.js';
import type { CreateClientBody } from './oauth.schemas.js';
import * as store from './oauth.store.js';

export interface CreatedClient {
  clientId: string;
  clientSecret: string;
}

/** The one way a client is made: its secret is returned here and stored only as a hash. */
async function insertNewClient(
  db: Queryable,
  scope: Scope,
  client: { userId: string; name: string; scopes: string[] },
  now: Date,
): Promise<CreatedClient> {
  const clientId = newClientId();
  const clientSecret = newClientSecret();
  await store.insertClient(db, {
    id: clientId,
    organization_id: scope.organizationId,
    user_id: client.userId,
    name: client.name,
    secret_hash: hashSecret(clientSecret),
    scopes: [...new Set(client.scopes)].join(' '),
    created_at: isoSeconds(now),
  });
  return { clientId, clientSecret };
}

/**
 * A brand administrator registers a client that acts as a user of the organisation (the caller unless
 * `userId` says otherwise). A caller that is itself an OAuth client gives no scope it lacks: a client
 * never makes one mightier than itself.
 */
export async function createClient(
  deps: Deps,
  principal: Principal,
  body: CreateClientBody,
): Promise<CreatedClient> {
  requireBrandAdmin(principal);
  const { scopes: granted } = principal;
  const beyond = granted ? body.scopes.filter((scope) => !covers(granted, scope)) : [];
  if (beyond.length > 0)
    throw ApiError.of(
      'QMST_2.1',
      `The operation is forbidden: the access token lacks the scope ${beyond[0]}.`,
    );
  const userId = body.userId ?? principal.userId;
  return deps.db.transaction().execute(async (trx) => {
    if (!(await allUsersInScope(trx, principal, [userId])))
      throw ApiError.of('FW_USR_1', `User ${userId} not found.`);
    return insertNewClient(
      trx,
      principal,
      { userId, name: body.name, scopes: body.scopes },
      deps.clock.now(),
    );
  });
}

export function listClients(deps: Deps, principal: Principal, page: Page): Promise<store.ClientRow[]> {
  requireBrandAdmin(principal);
  return store.listClients(deps.db, principal, page);
}

/** Revocation: the client and every token it holds go at once (the next call with one is a 401). */
export async function deleteClient(deps: Deps, principal: Principal, clientId: string): Promise<void> {
  requireBrandAdmin(principal);
  const deleted = await deps.db.transaction().execute((trx) => store.deleteClient(trx, principal, clientId));
  if (deleted === 0) throw ApiError.of('FW_OAU_1', `OAuth client ${clientId} not found.`);
}

/**
 * `fieldwork oauth-client create`: the operator's command line makes a client for any user, chosen as
 * `fieldwork token` chooses one. Its errors name the flag.
 */
export async function createClientForOperator(
  db: Queryable,
  selector: UserSelector,
  options: { name?: string; scopes: string[] },
  now: Date,
): Promise<CreatedClient & { userId: string; brandId: string }> {
  if (options.scopes.length === 0) throw new Error('--scopes: name at least one scope, e.g. manage:all');
  const unknown = options.scopes.find((scope) => !SCOPES.includes(scope));
  if (unknown) throw new Error(`--scopes: unknown scope "${unknown}"; known: ${SCOPES.join(', ')}`);
  return db.transaction().execute(async (trx) => {
    const user = await findSelectedUser(trx, selector);
    const scope = { organizationId: user.organization_id };
    const name = options.name ?? `${user.username} (command line)`;
    const created = await insertNewClient(trx, scope, { userId: user.id, name, scopes: options.scopes }, now);
    return { ...created, userId: user.id, brandId: user.organization_id };
  });
}
