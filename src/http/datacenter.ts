import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent, request as send } from 'undici';
import type { Config } from '../config.js';
import { ApiError } from './errors.js';

/**
 * Data centers (spec 1.4, docs/decisions/0011): a call made at the wrong one with an API token is sent on
 * to the configured peer that holds the account and answered with that peer's answer plus `meta.notice`
 * naming the right host (COMPAT.md "Users and the rest"). Only configured peers are ever called.
 */

/** Marks a call one data center sends another: it is answered where it lands, never sent on, so no loop. */
export const FORWARDED_BY = 'x-fieldwork-forwarded-by';

/** What of the caller's request goes along: the token, and what describes the body. */
const REQUEST_HEADERS = [
  'x-api-token',
  'authorization',
  'content-type',
  'content-length',
  'accept',
  'accept-language',
  'user-agent',
];
/** What of the peer's answer comes back; JSON bodies change (the notice), so their length is not passed. */
const RESPONSE_HEADERS = [
  'content-type',
  'content-disposition',
  'cache-control',
  'etag',
  'last-modified',
  'retry-after',
  'www-authenticate',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

/** Asking a peer whether it knows a token is one small call: a peer slower than this does not hold it. */
const PROBE_TIMEOUT_MS = 5_000;
/** A forwarded call's answer must start, and keep coming, within this. */
const FORWARD_TIMEOUT_MS = 60_000;

/** The notice the real service sends with a call it proxied (COMPAT.md "Envelope"). */
export function proxiedNotice(host: string): string {
  return `Request proxied. For faster response times, use this host instead: ${host}`;
}

/** The host a notice names: the peer's base URL without the scheme (`fra1.example.com`, `127.0.0.1:8081`). */
function hostOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * 401 for a token that belongs to a configured peer; undefined when `id` is no peer (the caller then
 * answers as for any unknown token). OAuth tokens are never forwarded: the client must ask the right host.
 */
export function tokenOfPeer(config: Config, id: string): ApiError | undefined {
  const base = config.datacenterPeers?.[id];
  if (!base) return undefined;
  return ApiError.of(
    'FW_DC_1',
    `The token belongs to data center ${id}, not ${config.datacenter}: use this host instead: ${hostOf(base)}`,
  );
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function pick(headers: Record<string, string | string[] | undefined>, names: string[]) {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = headerValue(headers[name]);
    if (value !== undefined) picked[name] = value;
  }
  return picked;
}

export class Datacenters {
  private agent: Agent | undefined;

  constructor(private readonly config: Config) {}

  get hasPeers(): boolean {
    return Object.keys(this.config.datacenterPeers ?? {}).length > 0;
  }

  /** The peer an organisation of data center `id` is served by; undefined when it is this one or unknown. */
  peer(id: string | undefined): string | undefined {
    if (!id || id === this.config.datacenter) return undefined;
    return this.config.datacenterPeers?.[id] ? id : undefined;
  }

  /** A call a peer sent here: answered here whatever happens. */
  isForwarded(request: FastifyRequest): boolean {
    return request.headers[FORWARDED_BY] !== undefined;
  }

  tokenOfPeer(id: string): ApiError | undefined {
    return tokenOfPeer(this.config, id);
  }

  /**
   * Which peer holds the caller's token: each is asked `whoami` with it, all at once; the first to answer
   * 200 does. Undefined when none does (or none answers in time).
   */
  async locate(request: FastifyRequest): Promise<string | undefined> {
    const headers = { ...pick(request.headers, ['x-api-token', 'authorization']), [FORWARDED_BY]: this.here };
    const asks = Object.entries(this.config.datacenterPeers ?? {}).map(async ([id, base]) => {
      const answer = await send(`${base}/API/v3/whoami`, {
        dispatcher: this.dispatcher(),
        headers,
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await answer.body.dump();
      if (answer.statusCode !== 200) throw new Error(`${id}: ${answer.statusCode}`);
      return id;
    });
    return Promise.any(asks).catch(() => undefined);
  }

  /**
   * Sends the call to peer `id` as it came (method, path, query, body, token) and answers with the peer's
   * answer: JSON with `meta.notice` naming the peer's host, anything else (a file) streamed as it is.
   */
  async forward(request: FastifyRequest, reply: FastifyReply, id: string): Promise<void> {
    const base = this.config.datacenterPeers?.[id] as string;
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0;
    let answer: Awaited<ReturnType<typeof send>>;
    try {
      answer = await send(`${base}${request.url}`, {
        dispatcher: this.dispatcher(),
        method: request.method as 'GET',
        headers: { ...pick(request.headers, REQUEST_HEADERS), [FORWARDED_BY]: this.here },
        body: hasBody ? request.raw : null,
      });
    } catch (error) {
      request.log.warn({ err: error, datacenter: id }, 'a forwarded call found no answer');
      throw ApiError.of('FW_DC_2', `The data center holding this account (${id}) did not answer; retry.`);
    }
    reply.code(answer.statusCode);
    reply.headers(pick(answer.headers, RESPONSE_HEADERS));
    reply.header(FORWARDED_BY, id);
    const type = headerValue(answer.headers['content-type']) ?? '';
    if (!type.includes('json')) {
      const length = headerValue(answer.headers['content-length']);
      if (length !== undefined) reply.header('content-length', length);
      reply.send(answer.body);
      return;
    }
    reply.send(withNotice(await answer.body.text(), proxiedNotice(hostOf(base))));
  }

  async close(): Promise<void> {
    await this.agent?.close();
  }

  private get here(): string {
    return this.config.datacenter;
  }

  private dispatcher(): Agent {
    this.agent ??= new Agent({
      keepAliveTimeout: 4_000,
      connect: { timeout: PROBE_TIMEOUT_MS },
      headersTimeout: FORWARD_TIMEOUT_MS,
      bodyTimeout: FORWARD_TIMEOUT_MS,
    });
    return this.agent;
  }
}

/** The peer's JSON answer with the notice in its `meta`; text that is not an envelope goes back unchanged. */
function withNotice(text: string, notice: string): string {
  try {
    const body = JSON.parse(text);
    if (body === null || typeof body !== 'object' || typeof body.meta !== 'object' || body.meta === null)
      return text;
    body.meta.notice = notice;
    return JSON.stringify(body);
  } catch {
    return text;
  }
}
