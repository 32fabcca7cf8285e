import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope, sendError, toApiError } from './error-handler.js';
import { ApiError } from './errors.js';
import { randomRequestId } from './request-id.js';

/** How long a refused client has to read its answer before its socket is closed. */
const CLIENT_LINGER_MS = 1_000;

/** What Node's HTTP parser refused, as one of our errors: too large, too slow, or not HTTP. */
function parserError(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return ApiError.of('FW_VAL_5', `The request headers are larger than ${maxHeaderSize / 1024} KB.`);
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return ApiError.of('FW_VAL_6', 'The request headers did not arrive in time.');
    default:
      return ApiError.of(
        'FW_VAL_1',
        `Invalid request: the request line or headers are not valid HTTP (${error.code ?? 'unknown'}).`,
      );
  }
}

/** A complete HTTP/1.1 response in the v3 envelope, with a request id of its own. */
export function clientErrorResponse(error: NodeJS.ErrnoException): string {
  const apiError = parserError(error);
  const requestId = randomRequestId();
  const body = JSON.stringify(errorEnvelope(apiError, requestId));
  return [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refuses (raw bytes outside ASCII in the request
 * line, headers over maxHeaderSize, a malformed header) never reaches Fastify, so the answer is written
 * to the socket here, in the envelope like every other error.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  // A reset connection, or one already answered: nothing can be written.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  this.log.debug({ err: error }, 'client error');
  // end(), not destroy(): closing with the rest of an oversized request unread would reset the
  // connection, and the client could lose the answer. A client that never closes has a second to read it.
  socket.end(clientErrorResponse(error));
  setTimeout(() => socket.destroy(), CLIENT_LINGER_MS).unref();
}

/**
 * Fastify's `frameworkErrors`: the router's refusals (a bad percent-encoding, an over-long path
 * parameter) come before any route or hook, so the request id header is set here.
 */
export function routerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  sendError(request, reply, toApiError(error));
}
