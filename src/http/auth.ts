import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Datacenters } from './datacenter.js';
import { ApiError } from './errors.js';
import type { Principal } from './principal.js';
import { covers, scopeFor } from './scopes.js';

/** Given by app.ts: the shared layer knows nothing of where tokens live. */
export type ResolveToken = (token: string) => Promise<Principal | undefined>;

/** How app.ts says who a token is: API tokens and OAuth access tokens apart, and the other data centers. */
export interface Authentication {
  /** A 40-character API token (COMPAT.md "Identifiers"), in `X-API-TOKEN` or as a bearer token. */
  apiToken: ResolveToken;
  /** Any other token: an OAuth access token. May throw an ApiError (expired, another data center's). */
  accessToken: ResolveToken;
  datacenters: Datacenters;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

const API_TOKEN = /^[A-Za-z0-9]{40}$/;

/** Spec 5.1: the X-API-TOKEN header (Node lowercases names, so any case works); also an OAuth bearer token. */
export function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-token'];
  const apiToken = Array.isArray(header) ? header[0] : header;
  if (apiToken) return apiToken.trim();
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  return undefined;
}

/** RFC 6750 section 3: a refused bearer token is told why in `WWW-Authenticate`. */
function bearerError(error: ApiError, reason: string, scope?: string): ApiError {
  const challenge = `Bearer realm="fieldwork", error="${reason}"${scope ? `, scope="${scope}"` : ''}`;
  return new ApiError(error.status, error.code, error.message, {
    ...error.headers,
    'www-authenticate': challenge,
  });
}

function unrecognized(apiToken: boolean): ApiError {
  if (apiToken) return ApiError.of('DCD_7', 'Unrecognized X-API-TOKEN.');
  return bearerError(ApiError.of('DCD_7', 'Unrecognized access token.'), 'invalid_token');
}

/**
 * An OAuth token may call a route only with its family's scope (http/scopes.ts); an API token may call
 * any. A route in no family is refused to every OAuth token. Unknown routes (404) are left to the router.
 */
function scopeRefusal(request: FastifyRequest, principal: Principal): ApiError | undefined {
  if (!principal.scopes) return undefined;
  const route = request.routeOptions.url;
  if (route === undefined) return undefined;
  const needed = scopeFor(request.method, route);
  if (needed && covers(principal.scopes, needed)) return undefined;
  const message = needed
    ? `The operation is forbidden: the access token lacks the scope ${needed}.`
    : 'The operation is forbidden to OAuth access tokens; use an API token.';
  return bearerError(ApiError.of('QMST_2.1', message), 'insufficient_scope', needed);
}

/**
 * Registers the authentication hook on every route of the given (encapsulated) instance. Callback style,
 * not async: it runs on every request, and this spares a promise per call. A call that is forwarded to
 * another data center is answered here and goes no further.
 */
export function requireAuthentication(app: FastifyInstance, auth: Authentication): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', (request, reply, done) => {
    const token = tokenFrom(request);
    if (!token) return done(ApiError.of('ATP_2', 'Expected authorization in headers, but none provided.'));
    const apiToken = API_TOKEN.test(token);
    (apiToken ? auth.apiToken : auth.accessToken)(token).then(
      (principal) => {
        if (!principal) return elsewhereOrRefuse(request, reply, auth, apiToken, done);
        const { datacenters } = auth;
        // Spec 1.4: the organisation belongs to another data center (moved, or one database shared by several).
        const home = datacenters.peer(principal.datacenter);
        if (home && !apiToken)
          return done(bearerError(datacenters.tokenOfPeer(home) as ApiError, 'invalid_token'));
        if (home && !datacenters.isForwarded(request)) return forward(request, reply, auth, home, done);
        const refusal = scopeRefusal(request, principal);
        if (refusal) return done(refusal);
        request.principal = principal;
        done();
      },
      (error) => done(apiToken ? error : bearerRefusal(error)),
    );
  });
}

/** An OAuth token refused with a 401 (expired, another data center's) says so the RFC 6750 way too. */
function bearerRefusal(error: Error): Error {
  return error instanceof ApiError && error.status === 401 ? bearerError(error, 'invalid_token') : error;
}

/** COMPAT.md: an API token unknown here may be a peer data center's; that peer answers the call. */
function elsewhereOrRefuse(
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Authentication,
  apiToken: boolean,
  done: HookHandlerDoneFunction,
): void {
  const { datacenters } = auth;
  if (!apiToken || !datacenters.hasPeers || datacenters.isForwarded(request)) {
    done(unrecognized(apiToken));
    return;
  }
  datacenters.locate(request).then((id) => {
    if (id) forward(request, reply, auth, id, done);
    else done(unrecognized(apiToken));
  }, done);
}

/** Answers from the peer; on failure, the error goes the usual way. `done` is not called on success. */
function forward(
  request: FastifyRequest,
  reply: FastifyReply,
  auth: Authentication,
  id: string,
  done: HookHandlerDoneFunction,
): void {
  auth.datacenters.forward(request, reply, id).catch(done);
}
