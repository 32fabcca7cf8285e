import { parse as parseDisposition } from 'content-disposition';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobWorker } from '../../src/jobs/job-runner.js';
import type { BootstrapResult } from '../../src/modules/organizations/bootstrap.service.js';
import { buildTestApp, type TestApp } from '../helpers/test-app.js';
import { importSmallSurvey } from '../surveys/survey-helpers.js';
import { startExportWorker, unzip, waitForExport } from './exports-helpers.js';

/**
 * Issue 19, defect 6: the download's Content-Disposition was written by hand, so a survey name outside
 * Latin-1 made Node throw after the status line (a 500, or a truncated body announced as a zip), and a
 * Latin-1 name went out as raw bytes a browser reads as garbage. Now: RFC 6266 `filename*` (UTF-8) with an
 * ASCII fallback, built before anything is sent.
 */
let t: TestApp;
let org: BootstrapResult;
let worker: JobWorker;

beforeAll(async () => {
  t = await buildTestApp();
  org = await t.newOrganization();
  worker = startExportWorker(t);
});
afterAll(async () => {
  await worker.stop();
  await t.close();
});

/** Exports the survey (current spelling) to completion and downloads the file. */
async function download(surveyId: string, body: Record<string, unknown> = {}) {
  const base = `/API/v3/surveys/${surveyId}/export-responses`;
  const started = await t.call(org.apiToken, 'POST', base, { format: 'csv', ...body });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const id = started.body.result.progressId as string;
  const { last } = await waitForExport(t, org.apiToken, `${base}/${id}`);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  return t.app.inject({ method: 'GET', url: `${base}/${id}/file`, headers: { 'x-api-token': org.apiToken } });
}

/** The header as a client reads it: ASCII only (what every HTTP stack passes on intact), parsed back. */
function fileNameOf(header: unknown): string {
  expect(typeof header).toBe('string');
  expect(header as string).toMatch(/^[\x20-\x7e]+$/);
  const parsed = parseDisposition(header as string);
  expect(parsed.type).toBe('attachment');
  return parsed.parameters.filename as string;
}

describe('the export download names the file after the survey', () => {
  it.each(['Customer’s survey – 2026', 'Опрос', 'Café ☕ アンケート', 'Café', 'A "quoted" name; with=signs'])(
    '%s: the exact name, and a complete zip',
    async (name) => {
      const surveyId = await importSmallSurvey(t, org.apiToken, { name });
      const res = await t.call(org.apiToken, 'POST', `/API/v3/surveys/${surveyId}/responses`, {
        values: { QID3_TEXT: 'an answer' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      const file = await download(surveyId);
      expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
      expect(file.headers['content-type']).toBe('application/zip');
      expect(fileNameOf(file.headers['content-disposition'])).toBe(`${name}.zip`);
      expect(Number(file.headers['content-length'])).toBe(file.rawPayload.length);
      const entries = await unzip(file.rawPayload);
      expect([...entries.keys()]).toEqual([`${name}.csv`]);
      const csv = entries.get(`${name}.csv`)?.toString('utf8') ?? '';
      expect(csv).toContain('an answer');
    },
  );

  it('names the bare file (compress: false) the same way', async () => {
    const name = 'Опрос – bare';
    const surveyId = await importSmallSurvey(t, org.apiToken, { name });
    const file = await download(surveyId, { compress: false, format: 'json' });
    expect(file.statusCode, file.body.slice(0, 300)).toBe(200);
    expect(fileNameOf(file.headers['content-disposition'])).toBe(`${name}.json`);
    expect(JSON.parse(file.body)).toEqual({ responses: [] });
  });
});
