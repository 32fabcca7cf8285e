import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { redactUrl } from './redact-url.js';

/**
 * One log line per request, at completion, written through pino (its formatters, redaction and stream
 * routing apply), with the request id (`requestId`, from the child logger), method, URL, status and time.
 * Fastify's default writes two lines with its req/res serialisers. API tokens travel in headers, which no
 * line carries; a secret in the URL (an individual link's token) is redacted in every line that names
 * the URL (redact-url.ts).
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }

  // Fastify's own lines that name the URL, with it redacted; otherwise as Fastify writes them.
  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.method}:${redactUrl(request.url)} not found`);
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    super.defaultErrorLog(error, withRedactedUrl(request), reply);
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    super.writeHeadError(error, withRedactedUrl(request), reply);
  }
}

/** The request as pino's `req` serialiser reads it (method, url, host, ip ...), with the URL redacted. */
function withRedactedUrl(request: FastifyRequest): FastifyRequest {
  return Object.create(request, { url: { value: redactUrl(request.url) } });
}
