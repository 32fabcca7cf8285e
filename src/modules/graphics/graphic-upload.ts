import { createHash } from 'node:crypto';
import { ApiError, ERROR_CODES } from '../../http/errors.js';
import { type ImageFormat, imageFormatOf, SNIFF_BYTES } from './image-format.js';

/** README "Graphics": the largest graphic taken. An e-mail image is far under it. */
export const GRAPHIC_MAX_BYTES = 10 * 1024 * 1024;

/** What an upload turned out to be, known once its stream has been read to the end. */
export interface InspectedUpload {
  format?: ImageFormat;
  size: number;
  /** The quoted strong ETag: 32 hex digits of the SHA-256 of the bytes. */
  etag?: string;
}

// Both answers are sent with the rest of the body unread: the connection cannot carry another request.
const closing = { connection: 'close' };

export function graphicTooLarge(maxBytes: number): ApiError {
  const message = `The graphic is larger than ${maxBytes / (1024 * 1024)} MB (${maxBytes} bytes).`;
  return new ApiError(ERROR_CODES.FW_VAL_4.status, 'FW_VAL_4', message, closing);
}

export function notAnImage(): ApiError {
  const message =
    'The file is not a PNG, JPEG, GIF or WebP image (checked from its bytes; SVG is not taken); nothing was stored.';
  return new ApiError(ERROR_CODES.FW_GRA_1.status, 'FW_GRA_1', message, closing);
}

/**
 * Passes the upload through chunk by chunk (to the BlobStore), refusing it as soon as its first bytes
 * are not one of the four image formats or it grows past `maxBytes`, and digesting it for the ETag. Only
 * the first few bytes are ever held back; `result` is complete once the generator has finished.
 */
export async function* inspectUpload(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  result: InspectedUpload,
): AsyncGenerator<Buffer> {
  const hash = createHash('sha256');
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const piece of source) {
    const chunk = Buffer.from(piece);
    result.size += chunk.length;
    if (result.size > maxBytes) throw graphicTooLarge(maxBytes);
    hash.update(chunk);
    if (head === undefined) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < SNIFF_BYTES) continue;
    result.format = formatOf(head);
    yield head;
    head = undefined;
  }
  if (head !== undefined) {
    result.format = formatOf(head);
    yield head;
  }
  result.etag = `"${hash.digest('hex').slice(0, 32)}"`;
}

function formatOf(head: Buffer): ImageFormat {
  const format = imageFormatOf(head);
  if (!format) throw notAnImage();
  return format;
}
