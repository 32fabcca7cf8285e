import { createServer } from 'node:net';
import { buildApp } from '../../src/app.js';
import type { App } from '../../src/http/app-types.js';
import { buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';

/** Free loopback ports, known before the servers start: each data center is configured with the other's URL. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => {
      const server = createServer();
      return new Promise<ReturnType<typeof createServer>>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(server)),
      );
    }),
  );
  const ports = servers.map((server) => (server.address() as { port: number }).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

export interface TwoDatacenters {
  /** fra1, with iad1 as its peer. */
  fra: TestApp;
  /** iad1's app, with fra1 as its peer; over its own database, or fra1's when `shared`. */
  iad: App;
  iadDatabase: TestApp['database'];
  /** iad1 as a test app, when it has a database of its own (for its job workers). */
  iadTest?: TestApp;
  fraUrl: string;
  iadUrl: string;
  close(): Promise<void>;
}

/**
 * Two Fieldwork deployments as two data centers, both listening on 127.0.0.1, each the other's peer. With
 * `shared`, both run over one database (one deployment's organisations may then belong to either).
 */
export async function twoDatacenters(options: { shared?: boolean } = {}): Promise<TwoDatacenters> {
  const [fraPort, iadPort] = (await freePorts(2)) as [number, number];
  const fraUrl = `http://127.0.0.1:${fraPort}`;
  const iadUrl = `http://127.0.0.1:${iadPort}`;
  const fra = await buildTestApp({ config: { datacenter: 'fra1', datacenterPeers: { iad1: iadUrl } } });
  const iadConfig = { datacenter: 'iad1', datacenterPeers: { fra1: fraUrl } };
  const own = options.shared ? undefined : await buildTestApp({ config: iadConfig });
  const iad =
    own?.app ??
    (await buildApp({
      config: testConfig(iadConfig),
      database: fra.database,
      clock: fra.clock,
      logger: false,
    }));
  await fra.app.listen({ port: fraPort, host: '127.0.0.1' });
  await iad.listen({ port: iadPort, host: '127.0.0.1' });
  return {
    fra,
    iad,
    iadDatabase: own?.database ?? fra.database,
    ...(own ? { iadTest: own } : {}),
    fraUrl,
    iadUrl,
    close: async () => {
      await (own ? own.close() : iad.close());
      await fra.close();
    },
  };
}

/** A call over the network, as a client makes it. */
export async function callAt(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}
