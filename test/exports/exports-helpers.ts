import { expect } from 'vitest';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import { startJobWorker } from '../helpers/jobs.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';
import { unzip } from '../helpers/zip.js';

export { unzip };

/** A job worker that runs response exports over the test app's database and clock. */
export const startExportWorker = (t: TestApp) =>
  startJobWorker(t, RESPONSE_EXPORT_JOB, responseExportJob, 20);

/** Records one response a set of values through `POST …/responses`; answers their ids, in order. */
export async function recordResponses(
  t: TestApp,
  token: string,
  surveyId: string,
  answers: readonly Record<string, unknown>[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const values of answers) {
    const res = await t.call(token, 'POST', `/API/v3/surveys/${surveyId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.result.responseId);
  }
  return ids;
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

/**
 * Runs a response export of a survey (`POST …/export-responses` with `body`) to completion, through an
 * export worker the test runs, and downloads it; answers the zip's one entry (its name and bytes).
 */
export async function exportedFile(
  t: TestApp,
  token: string,
  surveyId: string,
  body: Record<string, unknown>,
): Promise<{ name: string; bytes: Buffer }> {
  const base = `/API/v3/surveys/${surveyId}/export-responses`;
  const started = await t.call(token, 'POST', base, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { last } = await waitForExport(t, token, `${base}/${started.body.result.progressId}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  const file = await t.app.inject({
    url: `${base}/${last.body.result.fileId}/file`,
    headers: { 'x-api-token': token },
  });
  expect(file.statusCode).toBe(200);
  const entries = [...(await unzip(file.rawPayload)).entries()];
  expect(entries).toHaveLength(1);
  const [name, bytes] = entries[0] as [string, Buffer];
  return { name, bytes };
}

/**
 * Runs an export with the legacy spelling (`{surveyId, ...body}`) to completion and downloads it; answers
 * the export id and the zip's one entry.
 */
export async function runLegacyExport(
  t: TestApp,
  token: string,
  body: Record<string, unknown>,
): Promise<{ id: string; content: Buffer }> {
  const started = await t.call(token, 'POST', '/API/v3/responseexports', body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.result.id as string;
  const { last } = await waitForExport(t, token, `/API/v3/responseexports/${id}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  const file = await t.app.inject({
    method: 'GET',
    url: `/API/v3/responseexports/${id}/file`,
    headers: { 'x-api-token': token },
  });
  const entries = [...(await unzip(file.rawPayload)).values()];
  expect(entries).toHaveLength(1);
  return { id, content: entries[0] as Buffer };
}
