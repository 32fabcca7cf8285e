import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { finished, PassThrough, type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { ApiError, ERROR_CODES } from '../../http/errors.js';
import { JOB_FILE_MODE } from '../../jobs/job-files.js';

/**
 * Import uploads (contact and response imports): streamed to the job files directory, never held whole
 * in memory, and never larger than the import limit, whatever way the file came (multipart or raw body).
 */

/** The largest import file taken unless `--import-max-bytes` says otherwise: a million contacts is far under it. */
export const IMPORT_MAX_BYTES = 1024 * 1024 * 1024;

export const importMaxBytes = (config: Config): number => config.importMaxBytes ?? IMPORT_MAX_BYTES;

/** `1 GiB`, `64 KiB`, `1000 bytes`: a limit as a message shows it. */
export function describeBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** An upload's byte limit, and the error to fail with past it. */
export interface UploadLimit {
  maxBytes: number;
  tooLarge: () => Error;
}

/**
 * The import limit of this configuration, failing with 413 FW_VAL_4. The answer closes the connection:
 * the rest of the body is never read, so the connection can carry no further request.
 */
export function importUploadLimit(config: Config): UploadLimit {
  const maxBytes = importMaxBytes(config);
  const message = `The import file is larger than ${describeBytes(maxBytes)}.`;
  return {
    maxBytes,
    tooLarge: () => new ApiError(ERROR_CODES.FW_VAL_4.status, 'FW_VAL_4', message, { connection: 'close' }),
  };
}

/**
 * Streams `source` to `<dir>/<name>`, answering the path; a partial file is removed on failure. With a
 * `limit`, more bytes than `maxBytes` fail the save. The source is then left unread rather than
 * destroyed: it may be the request itself, whose connection must stay open for the 413 answer.
 */
export async function saveUpload(
  source: Readable,
  dir: string,
  name: string,
  limit?: UploadLimit,
): Promise<string> {
  const path = join(dir, name);
  const counter = limit ? byteCap(limit) : new PassThrough();
  // An error, or a close before the end (a body cut short), ends the save; pipe alone notices neither.
  const stopWatching = finished(source, (error) => {
    if (error) counter.destroy(isPrematureClose(error) ? cutShort() : error);
  });
  source.pipe(counter);
  try {
    await pipeline(counter, createWriteStream(path, { mode: JOB_FILE_MODE }));
    // A multipart file cut at the limit may end cleanly before its 'limit' error lands: busboy marks it.
    if (limit && (source as { truncated?: boolean }).truncated) throw limit.tooLarge();
  } catch (error) {
    await rm(path, { force: true });
    throw limit && (source as { truncated?: boolean }).truncated ? limit.tooLarge() : error;
  } finally {
    source.unpipe(counter);
    stopWatching();
  }
  return path;
}

const isPrematureClose = (error: Error) => (error as { code?: string }).code === 'ERR_STREAM_PREMATURE_CLOSE';

const cutShort = () =>
  ApiError.invalid('file', 'ended before the upload was complete (the body was cut short)');

function byteCap({ maxBytes, tooLarge }: UploadLimit): Transform {
  let bytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, next) {
      bytes += chunk.length;
      if (bytes > maxBytes) next(tooLarge());
      else next(null, chunk);
    },
  });
}
