import { promisify } from 'node:util';
import { fromBuffer, type ZipFile } from 'yauzl';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import { type ApiResponse, type TestApp, testConfig } from '../helpers/test-app.js';

/** A job worker that runs response exports over the test app's database and clock. */
export function startExportWorker(t: TestApp): JobWorker {
  const registry = new JobRegistry();
  const deps = { db: t.database.db, clock: t.clock, config: testConfig() };
  registry.register(RESPONSE_EXPORT_JOB, responseExportJob(deps));
  const worker = new JobWorker({ db: t.database.db, clock: t.clock, registry, pollMs: 20 });
  worker.start();
  return worker;
}

/** Polls a progress URL until the export is no longer in progress; answers every percentComplete seen. */
export async function waitForExport(
  t: TestApp,
  token: string,
  url: string,
  timeoutMs = 60_000,
): Promise<{ last: ApiResponse; seen: number[] }> {
  const deadline = Date.now() + timeoutMs;
  const seen: number[] = [];
  while (Date.now() < deadline) {
    const res = await t.call(token, 'GET', url);
    if (res.status === 200) seen.push(res.body.result.percentComplete);
    if (res.status !== 200 || res.body.result.status !== 'inProgress') return { last: res, seen };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`export ${url} did not finish in ${timeoutMs} ms`);
}

/** The entries of a zip: name → content. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await promisify<Buffer, { lazyEntries: boolean }, ZipFile>(fromBuffer)(zip, {
    lazyEntries: true,
  });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          file.readEntry();
        });
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return entries;
}
