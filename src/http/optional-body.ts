import type { FastifyRequest } from 'fastify';

/** For calls whose body is optional (a DELETE may carry one or not): no body validates as `{}`. */
export async function emptyBodyAsObject(request: FastifyRequest): Promise<void> {
  if (request.body === undefined || request.body === null) request.body = {};
}
