import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

export const SMALL_QSF = readFileSync(new URL('../fixtures/surveys/small.qsf', import.meta.url), 'utf8');

/** A multipart/form-data body with a `file` part and text fields, as a browser or curl -F sends it. */
export function multipartBody(file: string | Buffer, fields: Record<string, string> = {}) {
  const boundary = `----fieldwork${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="survey.qsf"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(file) ? file : Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadQsf(
  t: TestApp,
  token: string,
  file: string | Buffer,
  fields: Record<string, string> = {},
): Promise<ApiResponse> {
  const { body, contentType } = multipartBody(file, fields);
  return t.call(token, 'POST', '/API/v3/surveys', body, { 'content-type': contentType });
}

/** Imports the small test survey and returns its id. */
export async function importSmallSurvey(t: TestApp, token: string, fields: Record<string, string> = {}) {
  const res = await uploadQsf(t, token, SMALL_QSF, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result.id as string;
}
