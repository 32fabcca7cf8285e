import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { blobDirectory } from '../../src/files/create-blob-store.js';
import type { ApiResponse, TestApp } from '../helpers/test-app.js';

export type BlobBackend = 'directory' | 'database';

/** A multipart/form-data body: the text fields, then one file part named `part` (`file` by default). */
export function multipartImage(
  content: Buffer,
  options: { filename?: string; mimetype?: string; part?: string; fields?: Record<string, string> } = {},
) {
  const boundary = `----fieldwork${randomBytes(6).toString('hex')}`;
  const { filename = 'image.bin', mimetype = 'application/octet-stream', part = 'file' } = options;
  const fields = Object.entries(options.fields ?? {}).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const body = Buffer.concat([
    ...fields,
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part}"; filename="${filename}"\r\n` +
        `Content-Type: ${mimetype}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(
  t: TestApp,
  token: string | undefined,
  content: Buffer,
  options: Parameters<typeof multipartImage>[1] = {},
): Promise<ApiResponse> {
  const { body, headers } = multipartImage(content, options);
  return t.call(token, 'POST', '/API/v3/graphics', body, headers);
}

/** The public URL's path and query, from the absolute URL the upload answered. */
export const pathOf = (url: string) => new URL(url).pathname;

/** GET (or HEAD) a path with no token, as a mail reader does. */
export function fetchPublic(t: TestApp, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return t.app.inject({ method: method as 'GET', url: path, headers });
}

/**
 * The graphics blobs the backend holds for the organisation, read from the backend itself (so a
 * refused upload is seen to leave nothing, not even a half-written file or row).
 */
export async function storedGraphicBlobs(t: TestApp, backend: BlobBackend, organizationId: string) {
  if (backend === 'database') {
    const rows = await t.database.db
      .selectFrom('blobs')
      .select(['key', 'state'])
      .where('organization_id', '=', organizationId)
      .where('state', '!=', 'replaced')
      .execute();
    return rows.map((row) => `${row.state}:${row.key ?? ''}`);
  }
  const dir = join(blobDirectory(':memory:'), organizationId, 'graphics');
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}
