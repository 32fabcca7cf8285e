import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { contactImportJob } from '../../src/modules/contacts/contact-import.job.js';
import { CONTACT_IMPORT_JOB } from '../../src/modules/contacts/contact-imports.service.js';
import { startJobWorker } from '../helpers/jobs.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

const unique = () => randomBytes(4).toString('hex');

/** A mailing list in the organisation's default directory, made through the API. */
export async function createDirectoryList(
  t: TestApp,
  token: string,
  directoryId: string,
  name = `List ${unique()}`,
) {
  const res = await t.call(token, 'POST', `/API/v3/directories/${directoryId}/mailinglists`, { name });
  expect(res.status).toBe(200);
  return res.body.result.id as string;
}

export async function addListContact(
  t: TestApp,
  token: string,
  directoryId: string,
  listId: string,
  fields: Record<string, unknown> = {},
) {
  const suffix = unique();
  const res = await t.call(
    token,
    'POST',
    `/API/v3/directories/${directoryId}/mailinglists/${listId}/contacts`,
    {
      firstName: 'Ada',
      lastName: `Lovelace ${suffix}`,
      email: `ada-${suffix}@example.com`,
      ...fields,
    },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.result as { id: string; contactLookupId: string };
}

/** The path and query of an absolute nextPage URL, to follow it verbatim through inject. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Polls an import until it ends; bounded in count and time. */
export async function waitForImport(
  t: TestApp,
  token: string,
  url: string,
  timeoutMs = 60_000,
): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (let i = 0; i < 2000 && Date.now() < deadline; i++) {
    const res = await t.call(token, 'GET', url);
    if (res.status !== 200 || res.body.result.status !== 'inProgress') return res;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`import ${url} did not finish in ${timeoutMs} ms`);
}

/** A multipart/form-data body with one file part. */
export function multipartFile(filename: string, content: string, mimetype: string) {
  const boundary = `----fieldwork${unique()}`;
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: ${mimetype}\r\n\r\n${content}\r\n--${boundary}--\r\n`,
  );
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A job worker of its own for the contact import kind, so a test can stop and start it at will. */
export const startImportWorker = (t: TestApp) => startJobWorker(t, CONTACT_IMPORT_JOB, contactImportJob, 50);
