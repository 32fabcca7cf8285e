import type { FastifyError } from 'fastify';
import { ApiError } from './errors.js';

/**
 * @fastify/busboy reports a malformed multipart body with plain Errors known only by their message
 * (a content type without a boundary, a body cut short); a test sends each, so a new wording fails it.
 */
const MALFORMED_MULTIPART =
  /^(Multipart: Boundary not found|Boundary required|Unsupported Content-Type\.|Unexpected end of multipart data|\w+ terminated early due to unexpected end of multipart data)$/;

/** @fastify/multipart's own codes: its limits are sizes (413), and "not multipart" is a content type. */
const MULTIPART_CODES: Record<string, () => ApiError> = {
  FST_INVALID_MULTIPART_CONTENT_TYPE: () =>
    ApiError.of('FW_VAL_3', 'This call takes a multipart/form-data body here.'),
  FST_PARTS_LIMIT: () => ApiError.of('FW_VAL_4', 'The multipart body has more parts than this call takes.'),
  FST_FILES_LIMIT: () => ApiError.of('FW_VAL_4', 'The multipart body has more files than this call takes.'),
  FST_FIELDS_LIMIT: () => ApiError.of('FW_VAL_4', 'The multipart body has more fields than this call takes.'),
  FST_REQ_FILE_TOO_LARGE: () => ApiError.of('FW_VAL_4', 'The uploaded file is larger than this call takes.'),
};

/** Ids are at most 100 characters (their schemas); app.ts gives the router the same limit. */
export const MAX_PARAM_LENGTH = 100;

/**
 * Errors raised before a handler runs, from the router (a path that is not percent-encoded UTF-8, a
 * path parameter over maxParamLength) and from multipart parsing; undefined for any other error.
 */
export function fromFrameworkError(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return ApiError.invalid('the path', 'is not valid percent-encoded UTF-8');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return ApiError.invalid('a path parameter', `is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  const multipart = error.code ? MULTIPART_CODES[error.code] : undefined;
  if (multipart) return multipart();
  if (!error.code && MALFORMED_MULTIPART.test(error.message))
    return ApiError.invalid('the multipart body', `is malformed (${error.message})`);
  return undefined;
}
