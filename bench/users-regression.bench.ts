/**
 * Issue 18's regression guard for `GET /API/v3/users/{id}`, measured against the code it guards: the commit
 * before decisions 0004–0006 (BEFORE_0004), taken out of this repository's history into a temporary
 * directory (`git archive`, this checkout's node_modules) and served from this same process beside today's
 * code and a bare Fastify route with the same body. The figures (0.50–0.55 then, a guard of 0.45)
 * are ratios to the bare route on another day's machine; this prints both codes' ratios to bare and
 * today's to then's, from the same rounds. Both apps run as that commit's bench ran them, without a
 * logger, so the line compares the code path; `npm run bench -- users` measures today's with its log line.
 * Rounds alternate (bare, then, today) so that load from elsewhere hits all three alike.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { requestsPerSecond } from './load.js';
import type { BenchResult } from './run.js';

/** The last commit before decision 0004 (4647a3e): what issue 18 measured its 0.50–0.55 on. */
const BEFORE_0004 = '6ba2aba';
const ROUNDS = 3;
const DURATION_S = 8;
const WARM_UP_S = 3;
const CONNECTIONS = 16;
const root = fileURLToPath(new URL('..', import.meta.url));

interface Served {
  url: string;
  headers: Record<string, string>;
  body: string;
  close(): Promise<void>;
}

/** The app of the tree at `dir`, on a fresh in-memory database with one organisation, listening. */
async function serve(dir: string): Promise<Served> {
  const load = (path: string) => import(join(dir, 'src', path));
  const { buildApp } = await load('app.ts');
  const { systemClock } = await load('clock.ts');
  const { readConfig } = await load('config.ts');
  const { createDatabase, migrateToLatest } = await load('db/database.ts');
  const { bootstrapOrganization } = await load('modules/organizations/bootstrap.service.ts');
  const database = createDatabase({ dataDir: ':memory:' });
  await migrateToLatest(database.db);
  const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
  const config = readConfig({ data: ':memory:', rateLimit: '0' }, {});
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${app.server.address().port}/API/v3/users/${org.userId}`;
  const headers = { 'x-api-token': org.apiToken };
  const body = await (await fetch(url, { headers })).text();
  return {
    url,
    headers,
    body,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

export default async function bench(): Promise<BenchResult> {
  const then = mkdtempSync(join(tmpdir(), 'fieldwork-before-0004-'));
  const served: Served[] = [];
  const bare = Fastify();
  try {
    const archive = execFileSync('git', ['archive', BEFORE_0004, 'src'], { cwd: root, maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', then], { input: archive });
    symlinkSync(join(root, 'node_modules'), join(then, 'node_modules'));
    const before = await serve(then);
    served.push(before);
    const today = await serve(root);
    served.push(today);
    bare.get('/fixed', async (_request, reply) =>
      reply.type('application/json; charset=utf-8').send(today.body),
    );
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/fixed`;
    const load = (url: string, headers: Record<string, string>, durationS = DURATION_S) =>
      requestsPerSecond(url, headers, { connections: CONNECTIONS, durationS });

    await load(bareUrl, {}, WARM_UP_S);
    await load(before.url, before.headers, WARM_UP_S);
    await load(today.url, today.headers, WARM_UP_S);
    // This process serves all three (the load generator runs apart): its CPU time per request tells the
    // codes apart even when the machine's noise moves the rates.
    const measure = async (url: string, headers: Record<string, string>) => {
      const cpu = process.cpuUsage();
      const rate = await load(url, headers);
      const used = process.cpuUsage(cpu);
      return { rate, micros: (used.user + used.system) / (rate * DURATION_S) };
    };
    const sums = { bare: 0, before: 0, today: 0 };
    const micros = { before: [] as number[], today: [] as number[] };
    const lines = [
      `bodies ${before.body.length} and ${today.body.length} bytes, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s, no logger`,
    ];
    for (let round = 1; round <= ROUNDS; round++) {
      const bareRound = await measure(bareUrl, {});
      const beforeRound = await measure(before.url, before.headers);
      const todayRound = await measure(today.url, today.headers);
      const rates = { bare: bareRound.rate, before: beforeRound.rate, today: todayRound.rate };
      micros.before.push(beforeRound.micros);
      micros.today.push(todayRound.micros);
      sums.bare += rates.bare;
      sums.before += rates.before;
      sums.today += rates.today;
      lines.push(
        `round ${round}: bare ${rates.bare.toFixed(0)} req/s, ${BEFORE_0004} ${rates.before.toFixed(0)} ` +
          `(${(rates.before / rates.bare).toFixed(2)}; ${beforeRound.micros.toFixed(0)} µs CPU each), today ${rates.today.toFixed(0)} ` +
          `(${(rates.today / rates.bare).toFixed(2)}; ${todayRound.micros.toFixed(0)} µs CPU each)`,
      );
    }
    const kept = sums.today / sums.before;
    const median = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    lines.push(
      `CPU per request (medians): ${BEFORE_0004} ${median(micros.before).toFixed(0)} µs, today ${median(micros.today).toFixed(0)} µs; ` +
        `${BEFORE_0004}/today ${(median(micros.before) / median(micros.today)).toFixed(2)}`,
      `ratio to bare: ${BEFORE_0004} ${(sums.before / sums.bare).toFixed(2)}, today ${(sums.today / sums.bare).toFixed(2)}`,
      `today / ${BEFORE_0004}: ${kept.toFixed(2)} (guard: 0.45 where ${BEFORE_0004} measured 0.50–0.55, i.e. >= ${(0.45 / 0.5).toFixed(2)})`,
    );
    return {
      name: `GET /API/v3/users/{id}: today against ${BEFORE_0004} (before decisions 0004–0006)`,
      lines,
    };
  } finally {
    for (const app of served) await app.close();
    await bare.close();
    rmSync(then, { recursive: true, force: true });
  }
}
