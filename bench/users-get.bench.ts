/**
 * Issue 2: authenticated `GET /API/v3/users/{id}` on SQLite, against a bare Fastify route that returns a
 * fixed JSON body of the same size, both over loopback with the same load generator (in its own process).
 * Goal: ratio >= 0.6.
 */
import Fastify from 'fastify';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import { requestsPerSecond } from './load.js';
import type { BenchResult } from './run.js';

const DURATION_S = 8;
const CONNECTIONS = 16;

const load = (url: string, headers: Record<string, string>) =>
  requestsPerSecond(url, headers, { connections: CONNECTIONS, durationS: DURATION_S });

export default async function bench(): Promise<BenchResult> {
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const app = await buildApp({ config: readConfig({ data: ':memory:' }, {}), database, clock: systemClock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const sample = await fetch(`${appUrl}/API/v3/users/${org.userId}`, {
    headers: { 'x-api-token': org.apiToken },
  });
  const body = await sample.text();

  const bare = Fastify();
  bare.get('/fixed', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;

  try {
    await load(bareUrl, {}); // warm-up of the generator and the JIT
    const baseline = await load(bareUrl, {});
    const fieldwork = await load(`${appUrl}/API/v3/users/${org.userId}`, { 'x-api-token': org.apiToken });
    return {
      name: 'GET /API/v3/users/{id} (SQLite) vs bare Fastify, same body',
      lines: [
        `body ${body.length} bytes, ${CONNECTIONS} connections, ${DURATION_S} s each`,
        `bare route:  ${baseline.toFixed(0)} req/s`,
        `fieldwork:   ${fieldwork.toFixed(0)} req/s`,
        `ratio:       ${(fieldwork / baseline).toFixed(2)} (goal >= 0.6)`,
      ],
    };
  } finally {
    await app.close();
    await bare.close();
    await database.close();
  }
}
