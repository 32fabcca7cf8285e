/**
 * Issue 6: exporting 1,000,000 responses of a 20-question survey (plus the 17 metadata columns) to a
 * zipped file. Fieldwork's writers take rows generated on the fly (as from a database cursor) and stream
 * them into yazl; the baselines hold the same rows in an in-memory array and hand them to csv-stringify
 * (csv) or JSON.stringify per response (json), then to the same yazl. Each run is its own child process, so its
 * maxRSS is its peak memory. Goals: time within 1.5x of the baseline, our peak under 300 MB whatever
 * the row count. There is no .sav baseline (no npm package writes .sav): spss is timed against the csv
 * baseline. `EXPORT_BENCH_ROWS=200000 npm run bench -- export-formats` for a quicker run.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'csv-stringify';
import { ZipFile } from 'yazl';
import { cellSettings } from '../src/modules/exports/formats/cells.js';
import { writeExportArchive } from '../src/modules/exports/formats/export-archive.js';
import type {
  ExportColumn,
  ExportFormat,
  ExportLayout,
  ExportRow,
} from '../src/modules/exports/formats/export-layout.js';
import { jsonResponse } from '../src/modules/exports/formats/json-writer.js';
import { currentMetadataColumns } from '../src/modules/exports/formats/metadata-columns.js';
import { jsonBatches } from './json-batches.js';
import type { BenchResult } from './run.js';

const ROWS = Number(process.env.EXPORT_BENCH_ROWS ?? 1_000_000);
const LIKERT = [1, 2, 3, 4, 5].map((value) => ({ value, label: `Choice ${value}` }));
const WORDS = ['salami', 'cats', 'survey', 'export', 'stream', 'Grüße', 'zip', 'rows', 'delicious', 'team'];

/** 20 questions: 8 single-choice, a 4-row matrix, a 4-choice multi-answer, 4 text entries. */
function benchLayout(): ExportLayout {
  const q = (key: string, type: ExportColumn['type'], extra: Partial<ExportColumn> = {}): ExportColumn => ({
    key,
    name: key.replace('QID', 'Q'),
    text: `Question ${key}`,
    importId: { ImportId: key },
    kind: 'question',
    type,
    ...extra,
  });
  // String widths as the export job's pre-pass (max byte length per column) would find them.
  const widths: Record<string, number> = { recipientLastName: 1, recipientFirstName: 1, recipientEmail: 1 };
  const columns = currentMetadataColumns().map((c) =>
    c.type === 'string' ? { ...c, maxBytes: widths[c.key] ?? Math.min(c.maxBytes ?? 32, 32) } : c,
  );
  for (let i = 1; i <= 8; i++) columns.push(q(`QID${i}`, 'numeric', { valueLabels: LIKERT }));
  for (let r = 1; r <= 4; r++) columns.push(q(`QID9_${r}`, 'numeric', { valueLabels: LIKERT }));
  for (let c = 1; c <= 4; c++)
    columns.push(q(`QID10_${c}`, 'numeric', { valueLabels: [{ value: 1, label: `Food ${c}` }] }));
  for (let t = 11; t <= 14; t++) columns.push(q(`QID${t}_TEXT`, 'string', { maxBytes: 120 }));
  return { columns };
}

function text(seed: number): string {
  const words: string[] = [];
  for (let i = 0; i < 3 + (seed % 8); i++) words.push(WORDS[(seed >> i) % WORDS.length] as string);
  return words.join(seed % 5 === 0 ? ', ' : ' ');
}

function benchRow(i: number): ExportRow {
  const start = 1_600_000_000_000 + i * 37_000;
  const values: Record<string, string | number | null> = {
    startDate: start,
    endDate: start + 95_000,
    status: i % 50 === 0 ? 1 : 0,
    ipAddress: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    progress: 100,
    duration: 95,
    finished: 1,
    recordedDate: start + 96_000,
    _recordId: `R_${i.toString(36).padStart(15, '0')}`,
    locationLatitude: 39.7449951171875,
    locationLongitude: -75.09239959716797,
    distributionChannel: 'anonymous',
    userLanguage: 'EN',
  };
  for (let q = 1; q <= 8; q++) values[`QID${q}`] = ((i * q) % 5) + 1;
  for (let r = 1; r <= 4; r++) values[`QID9_${r}`] = ((i + r) % 5) + 1;
  for (let c = 1; c <= 4; c++) values[`QID10_${c}`] = (i >> c) % 2 === 0 ? 1 : null;
  for (let t = 11; t <= 14; t++) values[`QID${t}_TEXT`] = (i + t) % 3 === 0 ? null : text(i * 31 + t);
  return { responseId: values._recordId as string, values };
}

async function* generatedRows(count: number): AsyncGenerator<ExportRow> {
  for (let i = 0; i < count; i++) yield benchRow(i);
}

/** Counts bytes and drops them: the blob store is not what is measured. */
function sink(): Writable & { bytes: number } {
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out.bytes += chunk.length;
      done();
    },
  }) as Writable & { bytes: number };
  out.bytes = 0;
  return out;
}

async function runOurs(format: ExportFormat): Promise<number> {
  const destination = sink();
  await writeExportArchive({
    format,
    layout: benchLayout(),
    rows: generatedRows(ROWS),
    surveyName: 'Bench',
    destination,
  });
  return destination.bytes;
}

/** The baseline: the same rows, formatted the same way, held in memory, then stringified and zipped. */
async function runBaseline(format: 'csv' | 'json', started: { at: number }): Promise<number> {
  const layout = benchLayout();
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = (ms: number) => {
    const d = new Date(ms);
    return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  };
  const rows = Array.from({ length: ROWS }, (_, i) => benchRow(i));
  // json: the very records our writer builds (values, labels, ...), made before the clock starts.
  const settings = cellSettings({});
  const responses = format === 'json' ? rows.map((row) => jsonResponse(layout.columns, row, settings)) : [];
  const records = rows.map((row) =>
    layout.columns.map((c) => {
      const value = row.values[c.key];
      return c.type === 'date' && typeof value === 'number' ? date(value) : (value ?? '');
    }),
  );
  started.at = performance.now();
  const entry = new PassThrough();
  const zip = new ZipFile();
  zip.addReadStream(entry, `Bench.${format}`, { compress: true });
  zip.end();
  const destination = sink();
  const zipped = pipeline(zip.outputStream, destination);
  if (format === 'csv') {
    const header = [layout.columns.map((c) => c.name), layout.columns.map((c) => c.text)];
    await pipeline(stringify([...header, ...records], { record_delimiter: 'windows' }), entry);
  } else {
    // One JSON.stringify of a million responses passes V8's string limit: stringify each, in 64 KB batches.
    await pipeline(Readable.from(jsonBatches(responses)), entry);
  }
  await zipped;
  return destination.bytes;
}

type Case = 'ours-csv' | 'ours-json' | 'ours-spss' | 'baseline-csv' | 'baseline-json';

async function child(name: Case): Promise<void> {
  const started = { at: performance.now() };
  const bytes = name.startsWith('ours-')
    ? await runOurs(name.slice(5) as ExportFormat)
    : await runBaseline(name.slice(9) as 'csv' | 'json', started);
  const ms = performance.now() - started.at;
  process.stdout.write(JSON.stringify({ ms, bytes, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
}

async function measure(name: Case): Promise<{ ms: number; bytes: number; maxRssMb: number }> {
  const heap = name.startsWith('baseline') ? ['--max-old-space-size=16000'] : [];
  const self = fileURLToPath(import.meta.url);
  const proc = spawn(process.execPath, [...heap, '--import', 'tsx', self, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = await once(proc, 'close');
  if (code !== 0) throw new Error(`bench child ${name} exited with ${code}`);
  return JSON.parse(out);
}

export default async function bench(): Promise<BenchResult> {
  const lines = [
    `${ROWS.toLocaleString('en')} rows, ${benchLayout().columns.length} columns (17 metadata + 20 questions), zipped`,
  ];
  const baseline = { csv: await measure('baseline-csv'), json: await measure('baseline-json') };
  for (const [format, base] of [
    ['csv', baseline.csv],
    ['json', baseline.json],
    ['spss', baseline.csv],
  ] as const) {
    const ours = await measure(`ours-${format}`);
    const label =
      format === 'spss' ? 'csv-stringify baseline (no .sav library exists)' : `${format} baseline`;
    lines.push(
      `${format.padEnd(5)} ours ${(ours.ms / 1000).toFixed(1)} s, ${ours.maxRssMb.toFixed(0)} MB peak, ${(ours.bytes / 1e6).toFixed(1)} MB zip` +
        ` | ${label} ${(base.ms / 1000).toFixed(1)} s, ${base.maxRssMb.toFixed(0)} MB peak` +
        ` | time ratio ${(ours.ms / base.ms).toFixed(2)} (goal <= 1.5), our peak goal < 300 MB`,
    );
  }
  return { name: 'response export formats vs in-memory csv-stringify / JSON.stringify + yazl', lines };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await child(process.argv[2] as Case);
}
