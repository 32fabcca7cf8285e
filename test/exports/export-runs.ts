import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';
import { waitForExport } from './exports-helpers.js';

export interface CsvExport {
  /** The progress answer of the finished export. */
  status: ApiResponse;
  fileId: string;
  names: string[];
  importIds: string[];
  /** Data rows (after the three header rows). */
  data: string[][];
  /** The ResponseId column of the data rows, in file order. */
  responseIds: string[];
}

export const exportsBase = (surveyId: string) => `/API/v3/surveys/${surveyId}/export-responses`;

/** Starts an export (current spelling) and answers the start answer as it is (for the 400s). */
export function startExport(t: TestApp, token: string, surveyId: string, body: Record<string, unknown>) {
  return t.call(token, 'POST', exportsBase(surveyId), body);
}

/** The file of an export as bytes, with its status (404 once expired). */
export async function downloadFile(t: TestApp, token: string, url: string) {
  const raw = await t.app.inject({ method: 'GET', url, headers: { 'x-api-token': token } });
  return { status: raw.statusCode, bytes: raw.rawPayload, json: () => raw.json() };
}

/** Runs a bare csv export with these options to the end (either spelling) and parses the file. */
export async function exportCsv(
  t: TestApp,
  token: string,
  surveyId: string,
  options: Record<string, unknown> = {},
  spelling: 'current' | 'legacy' = 'current',
): Promise<CsvExport> {
  const body = { format: 'csv', compress: false, ...options };
  const legacy = spelling === 'legacy';
  const started = legacy
    ? await t.call(token, 'POST', '/API/v3/responseexports', { surveyId, ...body })
    : await startExport(t, token, surveyId, body);
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const progress = legacy
    ? `/API/v3/responseexports/${started.body.result.id}`
    : `${exportsBase(surveyId)}/${started.body.result.progressId}`;
  const { last } = await waitForExport(t, token, progress);
  expect(last.body.result.status, JSON.stringify(last.body)).toBe('complete');
  const fileId = (legacy ? started.body.result.id : last.body.result.fileId) as string;
  const fileUrl = legacy
    ? new URL(last.body.result.file).pathname
    : `${exportsBase(surveyId)}/${fileId}/file`;
  const file = await downloadFile(t, token, fileUrl);
  expect(file.status).toBe(200);
  const rows = parse(file.bytes.toString('utf8'), { relax_column_count: true }) as string[][];
  const [names = [], , importIds = []] = rows;
  const data = rows.slice(3);
  const idColumn = names.indexOf('ResponseId');
  const responseIds = idColumn < 0 ? [] : data.map((row) => row[idColumn] as string);
  return { status: last, fileId, names, importIds, data, responseIds };
}
