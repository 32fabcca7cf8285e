/**
 * Issue 6: exporting N stored responses (EXPORT_BENCH_ROWS, default 1,000,000) of a 20-question survey
 * to zipped csv, spss and json through the real path: the app and its job worker on a file-backed SQLite
 * database (EXPORT_BENCH_PG=1: a fresh PostgreSQL schema, dropped at the end), a POST to
 * /API/v3/responseexports, polled until complete. The baseline, in the same run, reads the same
 * responses into an in-memory array (not timed) and writes them with csv-stringify (json:
 * JSON.stringify per response) into the same zip library, yazl. There is no .sav library: spss is timed
 * against the csv baseline. Each run is a child process, so its maxRSS is its peak memory. Goals: time
 * within 1.5x of the baseline, our peak under 300 MB whatever the row count. EXPORT_BENCH_FORMATS
 * (`json`, `csv,spss` ...) runs only those formats and the baselines they need (default: all three).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { systemClock } from '../src/clock.js';
import { readConfig } from '../src/config.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import { bootstrapOrganization } from '../src/modules/organizations/bootstrap.service.js';
import type { ChildSpec } from './export-responses.child.js';
import { benchSurvey, seedResponses } from './export-responses.fixture.js';
import type { BenchResult } from './run.js';

const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 1_000_000);
const PG_URL = process.env.EXPORT_BENCH_PG
  ? (process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test')
  : undefined;
const FORMATS = ['csv', 'spss', 'json'] as const;
const ASKED = (process.env.EXPORT_BENCH_FORMATS ?? FORMATS.join(',')).split(',').map((f) => f.trim());
const unknownFormat = ASKED.find((format) => !(FORMATS as readonly string[]).includes(format));
if (unknownFormat !== undefined)
  throw new Error(`EXPORT_BENCH_FORMATS: no format ${unknownFormat} (the formats: ${FORMATS.join(', ')})`);
const SELECTED = FORMATS.filter((format) => ASKED.includes(format));
/** The baseline each format is timed against: there is no .sav library, so spss against csv's. */
const BASELINE_OF = { csv: 'csv', spss: 'csv', json: 'json' } as const;
/** A child that runs longer than this is killed and the benchmark fails (about 15 minutes per million rows). */
const CHILD_LIMIT_MS = Math.max(120_000, (ROWS / 1_000_000) * 900_000);

interface Figures {
  ms: number;
  /** CPU time of every thread of the child: steadier than `ms` on a shared machine. */
  cpuMs: number;
  bytes: number;
  maxRssMb: number;
}

async function measure(name: string, spec: ChildSpec): Promise<Figures> {
  const heap = name.startsWith('baseline') ? ['--max-old-space-size=16000'] : [];
  const child = fileURLToPath(new URL('./export-responses.child.ts', import.meta.url));
  const proc = spawn(process.execPath, [...heap, '--import', 'tsx', child, name, JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), CHILD_LIMIT_MS);
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code, signal] = await once(proc, 'close');
  clearTimeout(timer);
  if (code !== 0) throw new Error(`bench child ${name} ended with ${code ?? signal}`);
  return JSON.parse(out);
}

/** A migrated database with an organisation, the survey (created through the API) and N responses. */
async function seed(dataDir: string, pgSchema: string): Promise<ChildSpec> {
  const database = createDatabase({ dataDir, ...(PG_URL ? { databaseUrl: PG_URL, pgSchema } : {}) });
  try {
    if (PG_URL) await database.db.schema.createSchema(pgSchema).execute();
    await migrateToLatest(database.db);
    const org = await bootstrapOrganization(database.db, systemClock.now(), { brandId: 'bench' });
    const config = readConfig({ data: dataDir, logLevel: 'silent', rateLimit: '0' }, {});
    const app = await buildApp({ config, database, clock: systemClock, logger: false });
    const created = await app.inject({
      method: 'POST',
      url: '/API/v3/surveys',
      headers: { 'x-api-token': org.apiToken },
      payload: { file: benchSurvey() },
    });
    await app.close();
    const surveyId = created.json().result.id as string;
    await seedResponses(database, dataDir, { organizationId: org.brandId }, surveyId, ROWS);
    return {
      dataDir,
      organizationId: org.brandId,
      token: org.apiToken,
      surveyId,
      ...(PG_URL ? { databaseUrl: PG_URL, pgSchema } : {}),
    };
  } finally {
    await database.close();
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const line = (format: string, ours: Figures, label: string, base: Figures) =>
  `${format.padEnd(5)} ours ${s(ours.ms)} (cpu ${s(ours.cpuMs)}), ${ours.maxRssMb.toFixed(0)} MB peak, ${(ours.bytes / 1e6).toFixed(1)} MB zip` +
  ` | ${label} ${s(base.ms)} (cpu ${s(base.cpuMs)}), ${base.maxRssMb.toFixed(0)} MB peak, ${(base.bytes / 1e6).toFixed(1)} MB zip` +
  ` | time ratio ${(ours.ms / base.ms).toFixed(2)}, cpu ratio ${(ours.cpuMs / base.cpuMs).toFixed(2)} (goal <= 1.5), our peak goal < 300 MB`;

export default async function bench(): Promise<BenchResult> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldwork-export-bench-'));
  const pgSchema = `bench_export_${process.pid}`;
  try {
    const seedStarted = performance.now();
    const spec = await seed(dataDir, pgSchema);
    const lines = [
      `${ROWS.toLocaleString('en')} stored responses, 20 questions (43 columns), ${PG_URL ? 'PostgreSQL' : 'SQLite file'}; seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s (not measured)`,
    ];
    const baselines = new Map<string, Figures>();
    for (const kind of new Set(SELECTED.map((format) => BASELINE_OF[format])))
      baselines.set(kind, await measure(`baseline-${kind}`, spec));
    for (const format of SELECTED) {
      const base = baselines.get(BASELINE_OF[format]) as Figures;
      const ours = await measure(`ours-${format}`, spec);
      const label = format === 'spss' ? 'csv baseline (no .sav library exists)' : `${format} baseline`;
      lines.push(line(format, ours, label, base));
    }
    return {
      name: 'response export through the job (POST, poll) vs in-memory csv-stringify / JSON.stringify + yazl',
      lines,
    };
  } finally {
    if (PG_URL) {
      const database = createDatabase({ dataDir, databaseUrl: PG_URL });
      await database.db.schema.dropSchema(pgSchema).ifExists().cascade().execute();
      await database.close();
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}
