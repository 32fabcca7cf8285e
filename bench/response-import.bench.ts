/**
 * Issue 20: a response import of 100,000 rows (`POST /API/v3/surveys/{id}/import-responses`, a csv in the
 * survey's own export layout, through the job that a serving node runs) against a bulk insert of the same
 * rows into the responses table (the imported rows read back, written again under new ids, in the
 * import's own batches: BATCH_ROWS a transaction, INSERT_ROWS rows an INSERT ... VALUES, through Kysely), on
 * SQLite and PostgreSQL. For reference, not in the ratio: the same rows written through the responses' own
 * insert (responseInserts: on PostgreSQL one JSON parameter a statement, decision 0023).
 * Goal: ratio (bulk time / import time) >= 0.5 on both. `IMPORT_BENCH_ROWS` changes the size;
 * `BENCH_ENGINES=sqlite` (or `postgres`) runs one engine.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Db, Engine } from '../src/db/database.js';
import { dialectOf } from '../src/db/dialect/index.js';
import { newId } from '../src/http/ids.js';
import { BATCH_ROWS as BATCH } from '../src/modules/responseimports/response-import.job.js';
import {
  INSERT_ROWS as PER_INSERT,
  type ResponseRow,
  responseInserts,
} from '../src/modules/responses/responses.store.js';
import type { BenchResult } from './run.js';
import {
  createActiveSurvey,
  ENGINES,
  type Fieldwork,
  openBenchDatabase,
  startFieldwork,
} from './survey-taking.js';

const ROWS = Number(process.env.IMPORT_BENCH_ROWS ?? 100_000);
const QSF = readFileSync(new URL('../test/fixtures/surveys/small.qsf', import.meta.url), 'utf8');
const VALUES = { QID1: 10, QID2_1: 1, QID3_TEXT: 'Lovely', QID4_1: 5, QID4_2: 1, QID5: 9, panel: 'bench' };

async function call(fw: Fieldwork, method: string, path: string, body?: unknown) {
  const res = await fetch(`${fw.origin}/API/v3${path}`, {
    method,
    headers: fw.headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { result: Record<string, unknown> }).result;
}

/** Polls a progress URL until the job is complete (or failed: an error). */
async function finished(fw: Fieldwork, path: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 30 * 60_000;
  while (Date.now() < deadline) {
    const result = await call(fw, 'GET', path);
    if (result.status === 'complete') return result;
    if (result.status === 'failed') throw new Error(`${path} failed: ${JSON.stringify(result)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} did not finish`);
}

/** The survey's csv export of one response, as rows of cells (three header rows, then the response). */
async function exportedLayout(fw: Fieldwork, surveyId: string): Promise<string[][]> {
  await call(fw, 'POST', `/surveys/${surveyId}/responses`, { values: VALUES });
  const base = `/surveys/${surveyId}/export-responses`;
  const started = await call(fw, 'POST', base, { format: 'csv', compress: false });
  const done = await finished(fw, `${base}/${started.progressId}`);
  const file = await fetch(`${fw.origin}/API/v3${base}/${done.fileId}/file`, { headers: fw.headers });
  return parse(await file.text()) as string[][];
}

/** The export's header rows, then `ROWS` copies of its response, each under a new ResponseId. */
function importFile(layout: string[][]): string {
  const [names, texts, imports, response] = layout;
  if (!names || !texts || !imports || !response) throw new Error('unexpected export layout');
  const idColumn = names.indexOf('ResponseId');
  const rows = Array.from({ length: ROWS }, () => {
    const row = [...response];
    row[idColumn] = newId('R');
    return row;
  });
  return stringify([names, texts, imports, ...rows]);
}

async function timedImport(fw: Fieldwork, surveyId: string, csv: string): Promise<number> {
  const form = new FormData();
  form.append('format', 'csv');
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'responses.csv');
  const started = performance.now();
  const res = await fetch(`${fw.origin}/API/v3/surveys/${surveyId}/import-responses`, {
    method: 'POST',
    headers: { 'x-api-token': fw.headers['x-api-token'] as string },
    body: form,
  });
  if (res.status !== 200) throw new Error(`import: ${res.status} ${await res.text()}`);
  const { progressId } = ((await res.json()) as { result: { progressId: string } }).result;
  const done = await finished(fw, `/surveys/${surveyId}/import-responses/${progressId}`);
  const seconds = (performance.now() - started) / 1000;
  const added = (done.result as { added: number }).added;
  if (added !== ROWS) throw new Error(`imported ${added} of ${ROWS}: ${JSON.stringify(done)}`);
  return seconds;
}

/** The survey's imported rows, read back. */
function importedRows(database: Db, surveyId: string): Promise<ResponseRow[]> {
  return database.db.selectFrom('responses').selectAll().where('survey_id', '=', surveyId).execute();
}

/** The imported rows written again under new ids, in the import's batches and INSERT sizes. */
async function timedBulkInsert(rows: readonly ResponseRow[], database: Db): Promise<number> {
  let seq = 2_000_000_000 - rows.length;
  const copies = rows.map((row) => ({ ...row, id: newId('R'), seq: seq++ }));
  const started = performance.now();
  for (let i = 0; i < copies.length; i += BATCH) {
    const batch = copies.slice(i, i + BATCH);
    await database.db.transaction().execute(async (trx) => {
      for (let j = 0; j < batch.length; j += PER_INSERT)
        await trx
          .insertInto('responses')
          .values(batch.slice(j, j + PER_INSERT))
          .execute();
    });
  }
  return (performance.now() - started) / 1000;
}

/** The reference: the same rows, under new ids, in the import's batches, through the responses' own insert. */
async function timedOwnInsert(rows: readonly ResponseRow[], database: Db): Promise<number> {
  const copies = rows.map(({ seq: _, ...row }) => ({ ...row, id: newId('R') }));
  const started = performance.now();
  for (let i = 0; i < copies.length; i += BATCH) {
    const batch = copies.slice(i, i + BATCH);
    await database.db.transaction().execute(async (trx) => {
      await dialectOf(trx).runWrites(trx, await responseInserts(trx, batch));
    });
  }
  return (performance.now() - started) / 1000;
}

async function benchEngine(engine: Engine): Promise<string[]> {
  const { database, drop } = await openBenchDatabase(engine);
  const fw = await startFieldwork(database);
  // The export and the import run as jobs: this node runs its workers, as a serving node does.
  fw.app.workers.start();
  try {
    const surveyId = await createActiveSurvey(fw, QSF);
    const csv = importFile(await exportedLayout(fw, surveyId));
    const imported = await timedImport(fw, surveyId, csv);
    const rows = await importedRows(database, surveyId);
    const bulk = await timedBulkInsert(rows, database);
    const own = await timedOwnInsert(rows, database);
    return [
      `${engine}: import of ${ROWS} rows (${(csv.length / 1e6).toFixed(1)} MB csv) ${imported.toFixed(1)} s ` +
        `(${(ROWS / imported).toFixed(0)} rows/s); bulk insert of the same rows ${bulk.toFixed(1)} s ` +
        `(${(ROWS / bulk).toFixed(0)} rows/s)`,
      `${engine}: ratio ${(bulk / imported).toFixed(2)} (goal >= 0.5)`,
      `${engine}: for reference, the same rows through the responses' own insert ${own.toFixed(1)} s ` +
        `(${(ROWS / own).toFixed(0)} rows/s; import / own insert ${(own / imported).toFixed(2)})`,
    ];
  } finally {
    await fw.app.close();
    await database.close();
    await drop();
  }
}

export default async function bench(): Promise<BenchResult> {
  const lines: string[] = [];
  for (const engine of ENGINES) lines.push(...(await benchEngine(engine)));
  return { name: `response import of ${ROWS} rows vs a bulk insert of the same rows`, lines };
}
