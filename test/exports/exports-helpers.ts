import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import { startJobWorker } from '../helpers/jobs.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

export { unzip } from '../helpers/zip.js';

/** A job worker that runs response exports over the test app's database and clock. */
export const startExportWorker = (t: TestApp) =>
  startJobWorker(t, RESPONSE_EXPORT_JOB, responseExportJob, 20);

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
