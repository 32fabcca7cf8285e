import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import type { App } from './http/app-types.js';
import { LogDestination } from './http/log-destination.js';
import { bootstrapOrganization, isEmpty } from './modules/organizations/bootstrap.service.js';

export interface RunningServer {
  app: App;
  url: string;
  stop(): Promise<void>;
}

/** Migrates, bootstraps an empty store, then listens. Writes the URL (and a first token) to `print`. */
export async function startServer(config: Config, print: (line: string) => void): Promise<RunningServer> {
  const database = createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await migrateToLatest(database.db);
  const firstStart = (await isEmpty(database.db))
    ? await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'fieldwork', name: 'Fieldwork' })
    : undefined;

  const logger = loggerOptions(config);
  const app = await buildApp({
    config,
    database,
    clock: systemClock,
    logger,
    ...(config.tlsCert && config.tlsKey
      ? { https: { cert: readFileSync(config.tlsCert), key: readFileSync(config.tlsKey) } }
      : {}),
  });
  app.addHook('onClose', async () => {
    await database.close();
    logger.stream.flushSync();
  });
  await app.listen({ port: config.port, host: config.host });
  if (config.role !== 'api') app.workers.start();

  const url = baseUrl(app, config);
  // One write, so a reader never sees the URL without the first-start token that follows it.
  const lines = [`Fieldwork is listening on ${url} (API at ${url}/API/v3, docs at ${url}/API/docs)`];
  if (firstStart) {
    lines.push(
      `First start: organization "${firstStart.brandId}", default directory ${firstStart.directoryId}.`,
    );
    lines.push(
      `Brand administrator ${firstStart.userId}, API token (shown only this once): ${firstStart.apiToken}`,
    );
  }
  print(lines.join('\n'));
  return { app, url, stop: () => app.close() };
}

const LOG_CHUNK_LENGTH = 16 * 1024;
const LOG_FLUSH_MS = 1000;
const LOG_MAX_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * pino's options for a serving node; the benchmark uses them too, so it measures what runs. Lines are
 * written in chunks of 16 KB, at least every second and at exit (see LogDestination): a write per line
 * cost about a tenth of `GET /users/{id}`. Should the destination stop reading, lines beyond 16 MB are
 * dropped rather than the server's memory growing without end.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>, destination: number | string = 1) {
  const sink = pino.destination({ dest: destination, maxLength: LOG_MAX_BUFFER_BYTES, sync: false });
  const stream = new LogDestination(sink, { chunkLength: LOG_CHUNK_LENGTH, flushMs: LOG_FLUSH_MS });
  // No log line carries headers (see RequestLog); redaction stays as a guard should one ever do.
  return {
    level: config.logLevel,
    redact: ['req.headers["x-api-token"]', 'req.headers.authorization'],
    stream,
  };
}

function baseUrl(app: App, config: Config): string {
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${config.tlsCert ? 'https' : 'http'}://${host}:${address.port}`;
}

/** SIGTERM or SIGINT: stop taking requests, let in-flight ones finish, stop workers, close the database. */
export function closeOnSignals(server: RunningServer, log: (line: string) => void): void {
  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    log(`${signal} received, shutting down`);
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`shutdown failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => close('SIGTERM'));
  process.once('SIGINT', () => close('SIGINT'));
}
