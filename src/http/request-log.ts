import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

/**
 * One log line per request, at completion, with the request id (`requestId`, from the child logger),
 * method, URL, status and time. Fastify's default writes two lines through pino's req/res serialisers:
 * measured on `GET /users/{id}`, logging then cost about a third of the request. Tokens travel in
 * headers, which no line carries.
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
      url: request.url,
      statusCode: reply.statusCode,
      responseTime: reply.elapsedTime,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
