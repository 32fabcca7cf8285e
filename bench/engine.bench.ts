/**
 * Issue 20: survey taking through the pages, on SQLite and PostgreSQL. Respondents (16, then 64 at once,
 * in a load generator process of their own) each open the anonymous link, post the survey's three pages
 * (a forced matrix and a requested essay among them) and follow every redirect as a browser does; the last
 * page records the response with its completion event (outbox row plus a delivery row for a subscriber).
 * Beside it, the bare app: the same requests answered by a Fastify app that sends pages of the same HTML
 * and inserts one response row per request, on the same database. Then the same survey with a 95 KB
 * definition (questions the flow never shows) against the 5 KB one. The delivery worker is not running:
 * what is measured is taking and recording, not delivering.
 *
 * Goals: completed responses at 16 and 64 respondents at least 0.5 (SQLite) and 0.35 (PostgreSQL) of the
 * bare app's; page p99 under 50 ms at 16; no errors; 95 KB at least 0.8 of 5 KB. Each run also prints the
 * p50 and p99 of the last page's post, which records the response, and the p99 of every other request:
 * the page p99 is about the recording post's 94th percentile (one request in six).
 * `BENCH_ENGINES=sqlite` runs one engine; `ENGINE_BENCH_S` sets the measured seconds of a run (default 6).
 */
import type { Db, Engine } from '../src/db/database.js';
import type { BenchResult } from './run.js';
import {
  capturePages,
  createActiveSurvey,
  ENGINES,
  openBenchDatabase,
  PETS,
  paddedQsf,
  type RespondentsResult,
  runRespondents,
  startBare,
  startFieldwork,
} from './survey-taking.js';

const DURATION_S = Number(process.env.ENGINE_BENCH_S ?? 6);
const WARM_UP_S = 1;
const ROUNDS = 2;
const RESPONDENTS = [16, 64];
const { qsf: QSF, pages: PAGES, endText: END_TEXT } = PETS;
// About 95 KB once stored (the stored definition spells out what the file leaves implicit).
const BIG_QSF = paddedQsf(QSF, 60_000);

const load = (origin: string, surveyId: string, respondents: number, warmUpS = WARM_UP_S) =>
  runRespondents({
    origin,
    surveyId,
    respondents,
    warmUpS,
    durationS: DURATION_S,
    pages: PAGES,
    endText: END_TEXT,
  });

const describe = (r: RespondentsResult) =>
  `${r.completedPerS.toFixed(0)}/s (${r.requestsPerS.toFixed(0)} requests/s, ${(r.serverCpuMs ?? 0).toFixed(2)} ms server CPU each), ` +
  `p50 ${r.p50Ms.toFixed(1)} p99 ${r.p99Ms.toFixed(1)} max ${r.maxMs.toFixed(0)} ms ` +
  `(recording post p50 ${r.recordingP50Ms.toFixed(1)} p99 ${r.recordingP99Ms.toFixed(1)}, other requests p99 ${r.othersP99Ms.toFixed(1)}), ` +
  `${r.errors} errors${r.firstError ? ` (${r.firstError})` : ''}`;

/** The stored definition's length in KB. */
async function definitionKb(database: Db, surveyId: string): Promise<number> {
  const row = await database.db
    .selectFrom('surveys')
    .select('definition')
    .where('id', '=', surveyId)
    .executeTakeFirstOrThrow();
  return Math.round(row.definition.length / 1024);
}

/** A and B measured in alternation, `ROUNDS` times each; the ratio is of the summed rates. */
async function alternate(
  label: string,
  names: [string, string],
  a: () => Promise<RespondentsResult>,
  b: () => Promise<RespondentsResult>,
): Promise<string[]> {
  const lines: string[] = [];
  let sumA = 0;
  let sumB = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const first = await a();
    const second = await b();
    sumA += first.completedPerS;
    sumB += second.completedPerS;
    lines.push(`${label} round ${round}: ${names[0]} ${describe(first)}`);
    lines.push(`${label} round ${round}: ${names[1]} ${describe(second)}`);
  }
  lines.push(`${label}: ratio ${(sumB / sumA).toFixed(2)}`);
  return lines;
}

async function benchEngine(engine: Engine): Promise<string[]> {
  const { database, drop } = await openBenchDatabase(engine);
  const fw = await startFieldwork(database);
  const small = await createActiveSurvey(fw, QSF);
  const big = await createActiveSurvey(fw, BIG_QSF);
  const captured = await capturePages(fw, small, PAGES);
  const row = await database.db.selectFrom('responses').selectAll().executeTakeFirstOrThrow();
  const bare = await startBare(database, captured, row);
  const lines: string[] = [];
  try {
    // Both servers' JIT warmed alike before anything is measured.
    await load(bare.origin, small, 16, 3);
    await load(fw.origin, small, 16, 3);
    await load(fw.origin, big, 16, 1);
    for (const respondents of RESPONDENTS) {
      lines.push(
        ...(await alternate(
          `${engine}, ${respondents} respondents`,
          ['bare', 'fieldwork'],
          () => load(bare.origin, small, respondents),
          () => load(fw.origin, small, respondents),
        )),
      );
    }
    const kb = [await definitionKb(database, small), await definitionKb(database, big)];
    lines.push(
      ...(await alternate(
        `${engine}, 16 respondents, definition ${kb[0]} KB vs ${kb[1]} KB`,
        [`${kb[0]} KB`, `${kb[1]} KB`],
        () => load(fw.origin, small, 16),
        () => load(fw.origin, big, 16),
      )),
    );
    return lines;
  } finally {
    await bare.app.close();
    await fw.app.close();
    await database.close();
    await drop();
  }
}

export default async function bench(): Promise<BenchResult> {
  const lines = [
    `respondents in a separate process; each run ${WARM_UP_S} s warm-up then ${DURATION_S} s measured; ${ROUNDS} rounds in alternation; 3 pages, 6 requests a response; page = one request`,
  ];
  for (const engine of ENGINES) lines.push(...(await benchEngine(engine)));
  return {
    name: 'Survey taking through the pages (with completion events) vs bare render + insert, SQLite and PostgreSQL',
    lines,
  };
}
