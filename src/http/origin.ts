import type { FastifyRequest } from 'fastify';

/** Where the caller reached this node (scheme and host; behind a proxy with --trust-proxy, the proxy's): the base of the URLs we answer. */
export const originOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;
