/**
 * Issue 3: importing 1,000,000 contacts from a CSV file through the API (upload, the check that refuses
 * a malformed file, then the import job) on SQLite, against a bare batched insert of the same rows
 * (1,000 a statement with the import's own multi-row insert, a transaction each) into the same table. Each
 * runs in a child process of its own, so each peak memory (maxRSS) is its own; the client uploading the
 * file runs in a process of its own too, so the server's peak is the server's alone (the client's is
 * printed beside it). Goals: at least 0.5 of the baseline's rate; under 300 MB.
 * The children run the built JavaScript (dist/, built first), as `npm start` does. BENCH_IMPORT_ROWS sets
 * a smaller count for a quick run.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchResult } from './run.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const root = fileURLToPath(new URL('..', import.meta.url));
const child = fileURLToPath(new URL('./contacts-import.child.mjs', import.meta.url));
const exec = promisify(execFile);

async function run(...args: string[]): Promise<Record<string, number>> {
  const { stdout } = await exec(process.execPath, [child, ...args], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

export default async function bench(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-import-bench-'));
  try {
    // The children run the built JavaScript, as `npm start` does.
    await exec('npm', ['run', 'build', '--silent'], { cwd: root });
    const csv = join(dir, 'contacts.csv');
    await run('generate', csv, String(ROWS));
    const base = await run('baseline', csv, join(dir, 'baseline'), String(ROWS));
    const ours = await run('fieldwork', csv, join(dir, 'fieldwork'), String(ROWS));
    if (ours.added !== ROWS || ours.failed !== 0) throw new Error(`import counts: ${JSON.stringify(ours)}`);
    const rate = (figures: Record<string, number>) => ROWS / ((figures.ms as number) / 1000);
    const mb = (statSync(csv).size / 1e6).toFixed(0);
    // The whole child's CPU time, start-up included (the baseline's is lighter: it builds no app).
    const cpu = (figures: Record<string, number>) => ((figures.cpuMs as number) / 1000).toFixed(1);
    return {
      name: `import ${ROWS.toLocaleString('en')} contacts from a ${mb} MB CSV (SQLite) vs bare batched insert`,
      lines: [
        `baseline (insert the same rows, 1000 a statement): ${((base.ms as number) / 1000).toFixed(1)} s, ${rate(base).toFixed(0)} rows/s, peak RSS ${(base.maxRssMb as number).toFixed(0)} MB, process CPU ${cpu(base)} s`,
        `fieldwork (upload + file check + job): ${((ours.ms as number) / 1000).toFixed(1)} s, ${rate(ours).toFixed(0)} rows/s, peak RSS ${(ours.maxRssMb as number).toFixed(0)} MB, process CPU ${cpu(ours)} s`,
        `  the uploading client (its own process): peak RSS ${(ours.uploadMaxRssMb as number).toFixed(0)} MB, process CPU ${((ours.uploadCpuMs as number) / 1000).toFixed(1)} s`,
        `  of which upload and check ${((ours.uploadAndCheckMs as number) / 1000).toFixed(1)} s, job ${((ours.jobMs as number) / 1000).toFixed(1)} s`,
        `rate ratio fieldwork/baseline: ${(rate(ours) / rate(base)).toFixed(2)} (goal >= 0.5); peak memory goal < 300 MB`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
