import { expect } from 'vitest';
import { manualClock } from '../../src/clock.js';
import { JobRegistry, JobWorker } from '../../src/jobs/job-runner.js';
import { RESPONSE_EXPORT_JOB, responseExportJob } from '../../src/modules/exports/response-export.job.js';
import { responseImportJob } from '../../src/modules/responseimports/response-import.job.js';
import { RESPONSE_IMPORT_JOB } from '../../src/modules/responseimports/response-imports.service.js';
import { waitForExport } from '../exports/exports-helpers.js';
import { type ApiResponse, buildTestApp, type TestApp, testConfig } from '../helpers/test-app.js';
import { importSmallSurvey, multipartBody } from '../surveys/survey-helpers.js';

/** One job worker for response exports and imports (two workers of one kind each would fail the other's jobs). */
export function startWorker(t: TestApp): JobWorker {
  const deps = { db: t.database.db, clock: t.clock, config: testConfig(), blobs: t.app.blobs };
  const registry = new JobRegistry();
  registry.register(RESPONSE_EXPORT_JOB, responseExportJob(deps));
  // Two rows a batch, and beside SQLite the reader on its thread whatever the file's size (decision 0017):
  // the import tests go through the thread as large imports do.
  registry.register(RESPONSE_IMPORT_JOB, responseImportJob(deps, { batchRows: 2, threadFromBytes: 0 }));
  const worker = new JobWorker({ db: t.database.db, clock: t.clock, registry, pollMs: 20 });
  worker.start();
  return worker;
}

/** `POST /API/v3/responseimports` (or another URL) with the file and fields as multipart/form-data. */
export function postImport(
  t: TestApp,
  token: string,
  file: string | Buffer,
  fields: Record<string, string>,
  url = '/API/v3/responseimports',
): Promise<ApiResponse> {
  const { body, contentType } = multipartBody(file, fields);
  return t.call(token, 'POST', url, body, { 'content-type': contentType });
}

/** Polls until the import ends; answers the last status answer and every percentComplete seen. */
export async function waitForImport(t: TestApp, token: string, url: string) {
  const { last, seen } = await waitForExport(t, token, url);
  return { last, seen, result: last.body.result };
}

/** Starts an import of `file` into the survey, waits, and answers the finished import's status body. */
export async function importFile(
  t: TestApp,
  token: string,
  surveyId: string,
  file: string | Buffer,
  fields: Record<string, string> = {},
) {
  const started = await postImport(t, token, file, { surveyId, ...fields });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.result.id as string;
  expect(id).toMatch(/^PGRS_[A-Za-z0-9]{15}$/);
  const { result, seen } = await waitForImport(t, token, `/API/v3/responseimports/${id}`);
  return { id, result, seen };
}

/** Exports the survey (bare file, no zip) with the current spelling and answers the file's text. */
export async function exportText(
  t: TestApp,
  token: string,
  surveyId: string,
  options: Record<string, unknown>,
): Promise<string> {
  const base = `/API/v3/surveys/${surveyId}/export-responses`;
  const started = await t.call(token, 'POST', base, { compress: false, ...options });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { last } = await waitForExport(t, token, `${base}/${started.body.result.progressId}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  const file = await t.app.inject({
    method: 'GET',
    url: `${base}/${last.body.result.fileId}/file`,
    headers: { 'x-api-token': token },
  });
  expect(file.statusCode).toBe(200);
  return file.body;
}

/**
 * A test app whose organisation has the small survey with one response per entry of `answers`, recorded
 * an hour apart from 1 March 2026 noon, and a worker for exports and imports. `close` stops both.
 */
export async function smallSurveyWithResponses(answers: readonly Record<string, unknown>[]) {
  const clock = manualClock('2026-03-01T12:00:00Z');
  const t = await buildTestApp({ clock });
  const org = await t.newOrganization();
  const sourceId = await importSmallSurvey(t, org.apiToken);
  for (const values of answers) {
    const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${sourceId}/responses`, { values });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    clock.advance(3600 * 1000);
  }
  const worker = startWorker(t);
  const close = async () => {
    await worker.stop();
    await t.close();
  };
  return { t, org, sourceId, close };
}

/**
 * Our export of `sourceId`, imported into a new copy of the small survey and exported again with the same
 * options: both files' text, and the import's finished status (checked complete, `added` rows, no failure).
 */
export async function exportImportExport(
  t: TestApp,
  token: string,
  sourceId: string,
  added: number,
  exportOptions: Record<string, unknown>,
  importFields: Record<string, string> = {},
) {
  const first = await exportText(t, token, sourceId, exportOptions);
  const copyId = await importSmallSurvey(t, token);
  const { result, seen } = await importFile(t, token, copyId, first, importFields);
  expect(result, JSON.stringify(result)).toMatchObject({ status: 'complete', percentComplete: 100 });
  expect(result.result).toMatchObject({ added, failed: 0, errors: [] });
  const second = await exportText(t, token, copyId, exportOptions);
  return { first, second, result, seen, copyId };
}
