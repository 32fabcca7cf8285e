import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the receiver saw it. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  form: URLSearchParams;
  receivedAt: number;
}

/**
 * How to answer the n-th request (0-based): a status, extra headers, and how long to take; `after`
 * holds the answer back until it settles (a test that needs its own step done before the sender hears back).
 */
export type Responder = (
  n: number,
  request: ReceivedWebhook,
) => { status: number; headers?: Record<string, string>; delayMs?: number; after?: Promise<unknown> };

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Resolves once `count` requests have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `predicate` holds (checked on every request); rejects after `timeoutMs`. */
  waitUntil(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Connections open now: 0 once every sender's socket is closed, so all it sent has been read. */
  openConnections(): number;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 (never another address) that records every request it gets. */
export async function startWebhookReceiver(
  respond: Responder = () => ({ status: 200 }),
  path = '/hook',
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: ReceivedWebhook = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        form: new URLSearchParams(body),
        receivedAt: performance.now(),
      };
      const answer = respond(received.length, request);
      received.push(request);
      for (const wake of waiters) wake();
      const reply = () => {
        if (!res.destroyed) res.writeHead(answer.status, answer.headers ?? {}).end('ok');
      };
      const send = () => (answer.delayMs ? setTimeout(reply, answer.delayMs) : reply());
      if (answer.after) answer.after.then(send, send);
      else send();
    });
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const waitUntil = (predicate: (r: ReceivedWebhook[]) => boolean, timeoutMs = 20_000) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!predicate(received)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `webhook receiver: condition not met within ${timeoutMs} ms (${received.length} received)`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    waitFor: (count, timeoutMs) => waitUntil((r) => r.length >= count, timeoutMs),
    waitUntil,
    openConnections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
