import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import type { App } from './http/app-types.js';
import { mailDestination } from './modules/distributions/distributions.service.js';
import { type BootstrapResult, bootstrapIfEmpty } from './modules/organizations/bootstrap.service.js';
import { openMigrated, StartError } from './open-database.js';

export interface RunningServer {
  app: App;
  url: string;
  /** What to print once the server runs: the URL, and on a first start the administrator's token. */
  startText: string;
  stop(): Promise<void>;
}

/**
 * Migrates, listens, and only then bootstraps an empty store: a start that fails to listen (port in use,
 * a host that is not this machine's) has created nothing, so the next start is still a first start and
 * prints the administrator's token. Returns the text to print (the URL, and a first token) instead of
 * printing it: the caller first takes the signals that stop it, since whoever reads that line may send one
 * at once, and a signal with no listener ends the process without closing it.
 */
export async function startServer(config: Config): Promise<RunningServer> {
  const { database } = await openMigrated(config);
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
  try {
    await listen(app, config);
    // A worker node serves no API, so it makes no organisation and prints no token.
    const firstStart =
      config.role === 'worker'
        ? undefined
        : await bootstrapIfEmpty(database.db, systemClock.now(), config.datacenter);
    if (config.role !== 'api') app.workers.start();
    const url = baseUrl(app, config);
    // One text, printed in one write, so a reader never sees the URL without the first-start token after it.
    return { app, url, startText: startLines(url, config, firstStart).join('\n'), stop: () => app.close() };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** What this node does, and on a first start the administrator's token; else where to get a new one. */
function startLines(url: string, config: Config, firstStart: BootstrapResult | undefined): string[] {
  if (config.role === 'worker') {
    return [
      `Fieldwork is listening on ${url} as a worker: running background jobs; health at ${url}/health (no API on this node)`,
      mailDestination(config),
    ];
  }
  const jobs = config.role === 'api' ? '; background jobs run on worker nodes' : '';
  const lines = [`Fieldwork is listening on ${url} (API at ${url}/API/v3, docs at ${url}/API/docs${jobs})`];
  if (config.role === 'all') lines.push(mailDestination(config));
  if (!firstStart) {
    lines.push(
      'Lost an administrator\'s token? "npx fieldwork token rotate --brand <brand id>" prints a new one; "npx fieldwork users list" lists the users.',
    );
    return lines;
  }
  lines.push(
    `First start: organization "${firstStart.brandId}", default directory ${firstStart.directoryId}.`,
  );
  lines.push(
    `Brand administrator ${firstStart.userId}, API token (shown only this once): ${firstStart.apiToken}`,
  );
  lines.push(`Lost it? "npx fieldwork token rotate --brand ${firstStart.brandId}" prints a new one.`);
  return lines;
}

/** The database, migrated (`applied` names the migrations run now); an unreachable PostgreSQL names its setting. */

/** Listens; a taken port or a host that is not this machine's ends the start with a line naming the flag. */
async function listen(app: App, config: Config): Promise<void> {
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = String((error as { code?: unknown })?.code);
    const { port, host } = config;
    if (code === 'EADDRINUSE')
      throw new StartError(`port ${port} (--port or PORT) is already in use on ${host}; pick another port`);
    if (code === 'EACCES')
      throw new StartError(`port ${port} (--port or PORT) needs privileges on ${host}; pick one above 1023`);
    if (code === 'EADDRNOTAVAIL')
      throw new StartError(`host ${host} (--host or HOST) is not an address of this machine`);
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
      throw new StartError(`host ${host} (--host or HOST) does not resolve to an address`);
    throw error;
  }
}

const LOG_MAX_BUFFER_BYTES = 16 * 1024 * 1024;

/**
 * pino's options for a serving node; the benchmark uses them too, so it measures what runs. Lines go to
 * pino's own destination (sonic-boom), written asynchronously: while one write is under way the next
 * lines gather and go with the following one, so a busy server writes in chunks and an idle one at once.
 * At exit pino writes what waits, synchronously; closing the server does too. Should the destination
 * stop reading, lines beyond `maxBufferBytes` are dropped rather than memory growing without end, and
 * counted: a warning says how many once the destination takes lines again.
 */
export function loggerOptions(
  config: Pick<Config, 'logLevel'>,
  destination: number | string = 1,
  maxBufferBytes = LOG_MAX_BUFFER_BYTES,
) {
  const stream = pino.destination({ dest: destination, sync: false, maxLength: maxBufferBytes });
  reportDroppedLines(stream);
  // No log line carries headers (see RequestLog); redaction stays as a guard should one ever do.
  return {
    level: config.logLevel,
    redact: ['req.headers["x-api-token"]', 'req.headers.authorization'],
    stream,
  };
}

/** sonic-boom tells each dropped line by an event; after a drop, its next completed write reports them. */
function reportDroppedLines(stream: ReturnType<typeof pino.destination>): void {
  const log = pino({ level: 'warn' }, stream);
  let dropped = 0;
  stream.on('drop', () => {
    dropped++;
  });
  stream.on('write', () => {
    if (dropped === 0) return;
    const droppedLines = dropped;
    dropped = 0;
    // Not from inside sonic-boom's own write callback.
    setImmediate(() =>
      log.warn({ droppedLines }, 'log lines were dropped: the log destination did not keep up'),
    );
  });
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
