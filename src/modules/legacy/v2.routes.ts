/**
 * The retired version 2 endpoints (spec 7.1, 9): the script endpoint `/WRAPI/ControlPanel/api.php?Request=…`
 * and anything under `/API/v2/`, by any method, answer 404 in the v3 envelope with what replaces the
 * command. No token is needed: the answer is the same for everyone. Hidden from the OpenAPI document,
 * which describes version 3; docs/migrating-from-v2.md lists the answers.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { requestedCommand, retiredV2Call } from './v2.service.js';

const METHODS = ['DELETE', 'GET', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
const URLS = ['/WRAPI/ControlPanel/api.php', '/API/v2', '/API/v2/*'];
const FORM = 'application/x-www-form-urlencoded';
/** v2 clients post their parameters as a form; `Request` is looked for in this much of it, the rest is drained. */
const FORM_HEAD_BYTES = 64 * 1024;

export async function registerV2RetirementRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(async (v2) => {
    // Whatever a v2 client posts (a form, a CSV, a multipart survey file) gets the same 404, not a 400 or 415 about the body.
    v2.removeAllContentTypeParsers();
    v2.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage) =>
      formRequestField(request, payload),
    );
    for (const url of URLS) {
      v2.route({
        method: METHODS,
        url,
        schema: { hide: true },
        handler: async (request) => {
          const command = requestedCommand(request.query) ?? requestedCommand(request.body);
          throw retiredV2Call(command, deps.clock.now());
        },
      });
    }
  });
}

/** Reads the body to its end; of a form, keeps only its `Request` field (any case), from the first 64 KB. */
async function formRequestField(
  request: FastifyRequest,
  payload: IncomingMessage,
): Promise<Record<string, string> | undefined> {
  const isForm = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() === FORM;
  const head: Buffer[] = [];
  let kept = 0;
  for await (const chunk of payload as AsyncIterable<Buffer>) {
    if (!isForm || kept >= FORM_HEAD_BYTES) continue;
    head.push(chunk);
    kept += chunk.length;
  }
  if (!isForm) return undefined;
  const form = new URLSearchParams(Buffer.concat(head).subarray(0, FORM_HEAD_BYTES).toString('utf8'));
  for (const [key, value] of form) if (key.toLowerCase() === 'request') return { Request: value };
  return undefined;
}
