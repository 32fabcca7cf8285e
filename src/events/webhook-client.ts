import { Agent, request } from 'undici';
import type { WebhookMessage } from './message.js';
import { assertPublicLiteral, guardedLookup } from './ssrf.js';

/** Issue 4: a receiver gets 10 s to answer. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Enough of an answer's body to read for the log; the rest is discarded unread. */
const MAX_BODY_BYTES = 64 * 1024;

export interface WebhookResponse {
  status: number;
  retryAfter?: string;
}

export interface WebhookClient {
  /** POSTs the message; throws on refusal (private target), timeout or connection failure. */
  post(url: string, message: WebhookMessage): Promise<WebhookResponse>;
  close(): Promise<void>;
}

export interface WebhookClientOptions {
  allowPrivateTargets: boolean;
  timeoutMs?: number;
  /** Sockets kept per receiver origin. */
  connectionsPerOrigin?: number;
}

/**
 * The one HTTP client for deliveries (and the benchmark's baseline): undici with kept-alive connections.
 * Redirects are never followed (a 3xx is a failed attempt, retried like any other), and unless private
 * targets are allowed, every connection goes through the SSRF guard's lookup.
 */
export function createWebhookClient(options: WebhookClientOptions): WebhookClient {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 64,
    keepAliveTimeout: 4_000,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: options.allowPrivateTargets
      ? { timeout: timeoutMs }
      : { timeout: timeoutMs, lookup: guardedLookup },
  });
  return {
    async post(url, message) {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw new Error(`refused: ${target.protocol} is not http or https`);
      if (!options.allowPrivateTargets) assertPublicLiteral(target);
      const response = await request(target, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'user-agent': 'Fieldwork-Webhooks', ...message.headers },
        body: message.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body.dump({ limit: MAX_BODY_BYTES });
      const retryAfter = response.headers['retry-after'];
      return {
        status: response.statusCode,
        ...(retryAfter ? { retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter } : {}),
      };
    },
    close: () => agent.close(),
  };
}
