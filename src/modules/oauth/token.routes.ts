import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { toApiError } from '../../http/error-handler.js';
import type { TokenRequest } from './oauth.schemas.js';
import { OAuthError } from './oauth-error.js';
import { issueToken } from './tokens.service.js';

const FORM = 'application/x-www-form-urlencoded';
/** RFC 6749 5.1: an answer carrying a token, or about one, is never cached. */
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const FIELDS = ['grant_type', 'scope', 'client_id', 'client_secret'] as const;

/**
 * RFC 6749 3.1: a parameter sent twice is an invalid request; parameters the endpoint does not know are
 * ignored. Values are text as URLSearchParams decodes it (the shared input guard then checks them).
 */
export function parseTokenForm(text: string): TokenRequest {
  const params = new URLSearchParams(text);
  const form: TokenRequest = {};
  for (const field of FIELDS) {
    const values = params.getAll(field);
    if (values.length > 1) throw new OAuthError('invalid_request', `${field} is given more than once.`);
    if (values[0] !== undefined) form[field] = values[0];
  }
  return form;
}

/** Anything else that went wrong, in the token endpoint's words: a 4xx is an invalid request. */
function asOAuthError(request: FastifyRequest, error: Error): { status: number; body: object } {
  if (error instanceof OAuthError) return { status: error.status, body: error.body() };
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    request.log.error({ err: error }, 'the token endpoint failed');
    return { status: apiError.status, body: { error: 'server_error', error_description: apiError.message } };
  }
  const description =
    apiError.status === 415
      ? `The request body must be ${FORM}.`
      : apiError.message.replace(/^Invalid request: /, '');
  return { status: 400, body: { error: 'invalid_request', error_description: description } };
}

function sendOAuthError(request: FastifyRequest, reply: FastifyReply, error: Error) {
  const { status, body } = asOAuthError(request, error);
  // RFC 6749 5.2: a client that failed to authenticate is told the scheme to use.
  if (status === 401) reply.header('www-authenticate', 'Basic realm="fieldwork"');
  return reply.code(status).headers(NO_STORE).send(body);
}

/**
 * `POST /oauth2/token` at the host root (COMPAT.md "Users and the rest"), outside the v3 API and its
 * envelope: OAuth client libraries read RFC 6749's shapes. Hidden from the OpenAPI document, which
 * describes version 3; the README documents it.
 */
export async function registerTokenRoute(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(async (oauth) => {
    oauth.removeAllContentTypeParsers();
    oauth.addContentTypeParser(
      FORM,
      { parseAs: 'string', bodyLimit: 64 * 1024 },
      (_request, body, parsed) => {
        try {
          parsed(null, parseTokenForm(String(body)));
        } catch (error) {
          parsed(error as Error);
        }
      },
    );
    oauth.setErrorHandler((error, request, reply) => sendOAuthError(request, reply, error as Error));
    oauth.post('/oauth2/token', { schema: { hide: true } }, async (request, reply) => {
      const form = (request.body ?? {}) as TokenRequest;
      const answer = await issueToken(deps, form, request.headers.authorization);
      return reply.headers(NO_STORE).send(answer);
    });
  });
}
