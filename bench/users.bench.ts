/**
 * Issue 2: authenticated `GET /API/v3/users/{id}` on SQLite, against a bare Fastify route that returns a
 * fixed JSON body of the same size, both over loopback with the same load generator (in its own process).
 * Fieldwork runs with a serving node's logger (writing to /dev/null), so what is measured is what runs.
 * Both are warmed up alike, then measured in alternation so that a noisy machine hits both; the ratio is
 * of the summed rates. Goal: ratio >= 0.6.
 */
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import { loggerOptions } from '../src/server.js';
import { requestsPerSecond } from './load.js';
import type { BenchResult } from './run.js';

const WARM_UP_S = 4;
const DURATION_S = 8;
const ROUNDS = 2;
const CONNECTIONS = 16;

const load = (url: string, headers: Record<string, string>, durationS = DURATION_S) =>
  requestsPerSecond(url, headers, { connections: CONNECTIONS, durationS });

/**
 * A measured round: the rate, and this process's CPU time per request (both servers live here, the load
 * generator does not), which tells where a ratio comes from when the generator itself is the limit.
 */
async function measure(url: string, headers: Record<string, string>) {
  const cpu = process.cpuUsage();
  const rate = await load(url, headers);
  const used = process.cpuUsage(cpu);
  return { rate, cpuMicros: (used.user + used.system) / (rate * DURATION_S) };
}

export default async function bench(): Promise<BenchResult> {
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const config = readConfig({ data: ':memory:', rateLimit: '0' }, {});
  const logger = loggerOptions(config, '/dev/null');
  const app = await buildApp({ config, database, clock: systemClock, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/API/v3/users/${org.userId}`;
  const appHeaders = { 'x-api-token': org.apiToken };
  const body = await (await fetch(appUrl, { headers: appHeaders })).text();

  const bare = Fastify();
  bare.get('/fixed', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;

  try {
    // Warm-up of the generator and of both servers' JIT, alike.
    await load(bareUrl, {}, WARM_UP_S);
    await load(appUrl, appHeaders, WARM_UP_S);
    const lines = [
      `body ${body.length} bytes, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each`,
    ];
    let bareSum = 0;
    let oursSum = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const baseline = await measure(bareUrl, {});
      const fieldwork = await measure(appUrl, appHeaders);
      bareSum += baseline.rate;
      oursSum += fieldwork.rate;
      lines.push(
        `round ${round}: bare route ${baseline.rate.toFixed(0)} req/s (${baseline.cpuMicros.toFixed(1)} µs CPU each), ` +
          `fieldwork ${fieldwork.rate.toFixed(0)} req/s (${fieldwork.cpuMicros.toFixed(1)} µs CPU each)`,
      );
    }
    lines.push(`ratio:       ${(oursSum / bareSum).toFixed(2)} (goal >= 0.6)`);
    return { name: 'GET /API/v3/users/{id} (SQLite, logging on) vs bare Fastify, same body', lines };
  } finally {
    await app.close();
    await bare.close();
    await database.close();
  }
}
