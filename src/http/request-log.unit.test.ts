import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { expect, it } from 'vitest';
import { RequestLog } from './request-log.js';

/** A pino logger as loggerOptions makes one (its defaults), writing into an array. */
function capturingLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (text: string) => lines.push(text) });
  return { lines, logger };
}

it("writes the same line as pino's own info call, fields and order included", () => {
  const { lines, logger } = capturingLogger();
  const child = logger.child({ requestId: '0c2e9f3a-0000-4000-8000-000000000001' });
  const fields = {
    method: 'GET',
    url: '/API/v3/users/x?q="a"\\b\u00e9',
    statusCode: 200,
    responseTime: 0.4139,
  };
  const request = { method: fields.method, url: fields.url } as FastifyRequest;
  const reply = {
    log: child,
    statusCode: fields.statusCode,
    elapsedTime: fields.responseTime,
  } as unknown as FastifyReply;

  new RequestLog().requestCompleted(null, request, reply);
  child.info(fields, 'request completed');

  const withoutTime = (text: string | undefined) => text?.replace(/"time":\d+/, '"time":0');
  expect(lines).toHaveLength(2);
  expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
});
