/**
 * One measured run of the response export benchmark, in its own process so that its maxRSS is its peak
 * memory: `ours-<format>` starts the app with its workers on the seeded database, POSTs the export and
 * polls it to the end, exactly as a client of the server would; `baseline-<format>` reads the same
 * responses into an array first (not timed), then writes them with csv-stringify (or JSON.stringify per
 * response) into the same zip library. Prints `{ms, cpuMs, bytes, maxRssMb}` as JSON: `cpuMs` (every
 * thread of the process, zlib's too) depends less than `ms` on what else the shared machine runs.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify';
import { ZipFile } from 'yazl';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, type Db } from '../src/db/database.js';
import { applyHeapGrowth } from '../src/heap-growth.js';
import { cellSettings } from '../src/modules/exports/formats/cells.js';
import type { ExportRow } from '../src/modules/exports/formats/export-layout.js';
import { jsonResponse } from '../src/modules/exports/formats/json-writer.js';
import { exportLayout } from '../src/modules/exports/layout/export-columns.js';
import { streamResponsesForExport } from '../src/modules/responses/export-reads.service.js';
import { findSurveyInScope } from '../src/modules/surveys/surveys.service.js';
import { jsonBatches } from './json-batches.js';

/** What the parent hands over (argv[3], JSON). */
export interface ChildSpec {
  dataDir: string;
  databaseUrl?: string;
  pgSchema?: string;
  organizationId: string;
  token: string;
  surveyId: string;
}

async function runOurs(database: Db, spec: ChildSpec, format: string, clock: { start(): void }) {
  const config = {
    ...readConfig({ data: spec.dataDir, logLevel: 'silent', rateLimit: '0' }, {}),
    databaseUrl: spec.databaseUrl,
  };
  // As `fieldwork serve` does (src/main.ts): the heap's growth is set before the application loads.
  applyHeapGrowth(config.heapGrowthPercent);
  const { buildApp } = await import('../src/app.js');
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  await app.ready();
  app.workers.start();
  try {
    const headers = { 'x-api-token': spec.token };
    clock.start();
    const started = await app.inject({
      method: 'POST',
      url: '/API/v3/responseexports',
      headers,
      payload: { surveyId: spec.surveyId, format },
    });
    const id = started.json().result.id as string;
    for (;;) {
      const progress = await app.inject({ method: 'GET', url: `/API/v3/responseexports/${id}`, headers });
      const status = progress.json().result.status as string;
      if (status === 'complete') break;
      if (status !== 'inProgress') throw new Error(`export ${id}: ${progress.body}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const job = await database.db
      .selectFrom('jobs')
      .select('payload')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The export is a blob (`<orgId>/exports/<id>.zip`), in the store the app was configured with.
    const stored = await app.blobs.stat(JSON.parse(job.payload).file);
    if (!stored) throw new Error(`export ${id}: no file`);
    return stored.size;
  } finally {
    await app.close();
  }
}

/** The same responses as the export reads them, in recorded order, each made into `T`, held in memory. */
async function readAll<T>(database: Db, spec: ChildSpec, make: (row: ExportRow) => T): Promise<T[]> {
  const out: T[] = [];
  const scope = { organizationId: spec.organizationId };
  for await (const row of streamResponsesForExport(database.db, scope, { surveyId: spec.surveyId }, 5000))
    out.push(
      make({
        responseId: row.id,
        values: JSON.parse(row.values),
        labels: JSON.parse(row.labels ?? '{}'),
        displayedFields: JSON.parse(row.displayed_fields ?? '[]'),
        displayedValues: JSON.parse(row.displayed_values ?? '{}'),
      }),
    );
  return out;
}

async function runBaseline(database: Db, spec: ChildSpec, format: string, clock: { start(): void }) {
  const survey = await findSurveyInScope(database.db, { organizationId: spec.organizationId }, spec.surveyId);
  if (!survey) throw new Error('no survey');
  const { columns } = exportLayout(JSON.parse(survey.definition), 'csv');
  // csv: the same text the csv writer gives a date (`2026-03-01 12:00:00`), other values as they are;
  // json: the very records our json writer builds.
  const csvRecord = (row: ExportRow) =>
    columns.map((c) => {
      const value = row.values[c.key];
      return c.type === 'date' && typeof value === 'string' ? value.slice(0, 19).replace('T', ' ') : value;
    });
  const settings = cellSettings({});
  const records =
    format === 'csv'
      ? await readAll(database, spec, csvRecord)
      : await readAll(database, spec, (row) => jsonResponse(columns, row, settings));
  clock.start();
  const entry = new PassThrough();
  const zip = new ZipFile();
  zip.addReadStream(entry, `Bench.${format}`, { compress: true });
  zip.end();
  const file = join(spec.dataDir, `baseline-${format}.zip`);
  const zipped = pipeline(zip.outputStream, createWriteStream(file));
  if (format === 'csv') {
    const header = [columns.map((c) => c.name), columns.map((c) => c.text)];
    await pipeline(stringify([...header, ...records], { record_delimiter: 'windows' }), entry);
  } else {
    await pipeline(Readable.from(jsonBatches(records)), entry);
  }
  await zipped;
  return (await stat(file)).size;
}

const [name = '', specText = '{}'] = process.argv.slice(2);
const spec = JSON.parse(specText) as ChildSpec;
const database = createDatabase({
  dataDir: spec.dataDir,
  ...(spec.databaseUrl ? { databaseUrl: spec.databaseUrl, pgSchema: spec.pgSchema } : {}),
});
try {
  const clock = {
    at: performance.now(),
    cpu: process.cpuUsage(),
    start() {
      this.at = performance.now();
      this.cpu = process.cpuUsage();
    },
  };
  const [kind, format] = name.split('-') as [string, string];
  const bytes =
    kind === 'ours'
      ? await runOurs(database, spec, format, clock)
      : await runBaseline(database, spec, format, clock);
  const ms = performance.now() - clock.at;
  const cpu = process.cpuUsage(clock.cpu);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  process.stdout.write(JSON.stringify({ ms, cpuMs, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
} finally {
  await database.close();
}
