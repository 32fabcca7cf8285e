import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors.js';
import type { Principal } from './principal.js';

/** Given by app.ts: the shared layer knows nothing of where tokens live. */
export type ResolveToken = (token: string) => Promise<Principal | undefined>;

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/** Spec 5.1: the X-API-TOKEN header (Node lowercases names, so any case works); also an OAuth bearer token. */
export function tokenFrom(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-token'];
  const apiToken = Array.isArray(header) ? header[0] : header;
  if (apiToken) return apiToken.trim();
  const authorization = request.headers.authorization;
  if (authorization?.toLowerCase().startsWith('bearer ')) return authorization.slice(7).trim();
  return undefined;
}

/**
 * Registers the authentication hook on every route of the given (encapsulated) instance. Callback style,
 * not async: it runs on every request, and this spares a promise per call.
 */
export function requireAuthentication(app: FastifyInstance, resolveToken: ResolveToken): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', (request, _reply, done) => {
    const token = tokenFrom(request);
    if (!token) return done(ApiError.of('ATP_2', 'Expected authorization in headers, but none provided.'));
    resolveToken(token).then((principal) => {
      if (!principal) return done(ApiError.of('DCD_7', 'Unrecognized X-API-TOKEN.'));
      request.principal = principal;
      done();
    }, done);
  });
}
