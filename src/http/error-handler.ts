import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { httpStatusText } from './envelope.js';
import { ApiError, ERROR_CODES } from './errors.js';
import { fromFrameworkError } from './framework-errors.js';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** Names the offending field the way a caller wrote it: `pageSize`, `header.email`, `X-API-TOKEN`. */
export function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const issue = issues[0];
  if (!issue) return 'Invalid request.';
  const path = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const missing = issue.params?.missingProperty;
  const field =
    typeof missing === 'string' ? (path ? `${path}.${missing}` : missing) : path || (context ?? 'body');
  const message = issue.keyword === 'required' ? 'is required' : (issue.message ?? 'is invalid');
  const allowed = issue.params?.allowedValues;
  const suffix = Array.isArray(allowed) ? ` (one of ${allowed.join(', ')})` : '';
  return `Invalid request: ${field} ${message}${suffix}.`;
}

/** Seconds a caller is asked to wait after a 503: about a restart or failover, beyond the pool's timeouts. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

/** 503 FW_SRV_2: the database is down, frozen or restarting; the same request may succeed shortly. */
export function databaseUnavailable(): ApiError {
  return new ApiError(
    ERROR_CODES.FW_SRV_2.status,
    'FW_SRV_2',
    'The database is unavailable; retry after the seconds in Retry-After.',
    { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) },
  );
}

/** Maps whatever was thrown to an ApiError: ours as is, Fastify's by kind, anything else a 500. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const validationContext = (fastifyError as FastifyError & { validationContext?: string })
      .validationContext;
    return ApiError.of('FW_VAL_1', describeValidation(fastifyError.validation, validationContext));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.of('FW_VAL_2', `The request body is not valid JSON: ${fastifyError.message}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ApiError.of('FW_VAL_3', 'Unsupported content type for this call; send application/json.');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return ApiError.of('FW_VAL_4', 'The request body is too large.');
  }
  const known = fromFrameworkError(fastifyError);
  if (known) return known;
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500)
    return ApiError.of('FW_VAL_1', `Invalid request: ${error.message}`);
  return ApiError.of('FW_SRV_1', 'An unexpected error occurred.');
}

/** The v3 error body; also written straight to a socket when Node's parser refuses a request. */
export function errorEnvelope(error: ApiError, requestId: string) {
  const metaError: Record<string, string> = { errorMessage: error.message };
  if (error.code) metaError.errorCode = error.code;
  return { meta: { httpStatus: httpStatusText(error.status), error: metaError, requestId } };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(error, request.id));
}

/** One handler renders every error in the v3 envelope: ours, schema, unknown route, crash. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, apiError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new ApiError(404, undefined, 'The requested resource does not exist.')),
  );
}
