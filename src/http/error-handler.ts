import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpStatusText } from './envelope.js';
import { ApiError } from './errors.js';

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

/** Maps whatever was thrown to an ApiError: ours as is, Fastify's by kind, anything else a 500. */
export function toApiError(error: FastifyError | ApiError | Error): ApiError {
  if (error instanceof ApiError) return error;
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
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500)
    return ApiError.of('FW_VAL_1', `Invalid request: ${error.message}`);
  return ApiError.of('FW_SRV_1', 'An unexpected error occurred.');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  const metaError: Record<string, string> = { errorMessage: error.message };
  if (error.code) metaError.errorCode = error.code;
  reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ meta: { httpStatus: httpStatusText(error.status), error: metaError, requestId: request.id } });
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
