/**
 * Issues 5 and 20: completed responses per second through `POST /API/v3/surveys/{id}/responses`, on SQLite
 * and PostgreSQL, each one written with its counts, quota counts and the completion event (outbox row plus
 * a delivery row for a subscriber), against the bare insert of the same response rows through Kysely on
 * the same database in one loop, in this process (the baseline of issues 5 and 20; beside it, the same
 * from as many loops at once as the load generator has connections). The delivery
 * worker is not running: what is measured is recording, not delivering. Goal: ratio >= 0.3 on both.
 * `BENCH_ENGINES=sqlite` (or `postgres`) runs one engine.
 */
import { readFileSync } from 'node:fs';
import type { Db, Engine } from '../src/db/database.js';
import { newId } from '../src/http/ids.js';
import type { ResponseRow } from '../src/modules/responses/responses.store.js';
import { requestsPerSecond } from './load.js';
import type { BenchResult } from './run.js';
import { createActiveSurvey, ENGINES, openBenchDatabase, startFieldwork } from './survey-taking.js';

const DURATION_S = 8;
const WARM_UP_S = 3;
const CONNECTIONS = 16;
const QSF = readFileSync(new URL('../test/fixtures/surveys/small.qsf', import.meta.url), 'utf8');
const VALUES = { QID1: 10, QID2_1: 1, QID3_TEXT: 'Lovely', QID4_1: 5, QID4_2: 1, QID5: 9, panel: 'bench' };

/** Rows per second inserted by `loops` loops at once, one statement each. */
async function bareInserts(database: Db, row: ResponseRow, seconds: number, loops: number): Promise<number> {
  let seq = 1_000_000_000 + Math.floor(Math.random() * 1_000_000_000);
  const until = performance.now() + seconds * 1000;
  let count = 0;
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() < until) {
        await database.db
          .insertInto('responses')
          .values({ ...row, id: newId('R'), seq: seq++, session_id: null })
          .execute();
        count++;
      }
    }),
  );
  return count / seconds;
}

async function benchEngine(engine: Engine): Promise<string[]> {
  const { database, drop } = await openBenchDatabase(engine);
  const fw = await startFieldwork(database);
  try {
    const surveyId = await createActiveSurvey(fw, QSF);
    const url = `${fw.origin}/API/v3/surveys/${surveyId}/responses`;
    const body = JSON.stringify({ values: VALUES });
    const sample = await fetch(url, { method: 'POST', headers: fw.headers, body });
    const responseId = ((await sample.json()) as { result: { responseId: string } }).result.responseId;
    const row = await database.db
      .selectFrom('responses')
      .selectAll()
      .where('id', '=', responseId)
      .executeTakeFirstOrThrow();
    const options = { connections: CONNECTIONS, method: 'POST', body };
    await bareInserts(database, row, WARM_UP_S, 1);
    const cpu = process.cpuUsage();
    const baseline = await bareInserts(database, row, DURATION_S, 1);
    const bareCpu = process.cpuUsage(cpu);
    const concurrent = await bareInserts(database, row, DURATION_S, CONNECTIONS);
    await requestsPerSecond(url, fw.headers, { ...options, durationS: WARM_UP_S });
    const before = process.cpuUsage();
    const fieldwork = await requestsPerSecond(url, fw.headers, { ...options, durationS: DURATION_S });
    const ours = process.cpuUsage(before);
    const micros = (used: NodeJS.CpuUsage, rate: number) =>
      `${((used.user + used.system) / (rate * DURATION_S)).toFixed(0)} µs CPU each, ` +
      `${(used.system / (rate * DURATION_S)).toFixed(0)} of it system`;
    return [
      `${engine}: bare insert ${baseline.toFixed(0)} rows/s in one loop (${micros(bareCpu, baseline)}), ` +
        `${concurrent.toFixed(0)} rows/s in ${CONNECTIONS} loops; fieldwork ${fieldwork.toFixed(0)} responses/s ` +
        `(${micros(ours, fieldwork)})`,
      `${engine}: ratio ${(fieldwork / baseline).toFixed(2)} (to ${CONNECTIONS} loops: ${(fieldwork / concurrent).toFixed(2)})`,
    ];
  } finally {
    await fw.app.close();
    await database.close();
    await drop();
  }
}

export default async function bench(): Promise<BenchResult> {
  const lines = [`${CONNECTIONS} connections, ${DURATION_S} s measured after ${WARM_UP_S} s warm-up`];
  for (const engine of ENGINES) lines.push(...(await benchEngine(engine)));
  return {
    name: 'POST /API/v3/surveys/{id}/responses (with completion events) vs bare insert of the same rows, SQLite and PostgreSQL',
    lines,
  };
}
