import { createHash } from 'node:crypto';
import { ApiError, ERROR_CODES } from '../../http/errors.js';
import { idPattern } from '../../http/ids.js';
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

const GRAPHIC_ID = new RegExp(idPattern('IM'));

/**
 * The `graphicId` an upload asks for (a Qualtrics graphic's id, kept so that an imported survey's texts
 * show it): undefined when absent or empty, else it must be a graphic id, `IM_` and 15 letters or digits.
 */
export function chosenGraphicId(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!GRAPHIC_ID.test(value))
    throw new ApiError(
      400,
      'FW_VAL_1',
      "Invalid request: graphicId must be a graphic id, IM_ and 15 letters or digits (as a Qualtrics graphic URL's IM= names it); nothing was stored.",
      closing,
    );
  return value;
}

/**
 * 409: the id is a graphic's already. Graphic ids are unique on the server, not per organisation: the
 * public URL names a graphic by its id alone. Another organisation's is said to be so, not whose it is
 * (its public URL already tells anyone that it exists).
 */
export function graphicIdTaken(graphicId: string, ofCaller: boolean): ApiError {
  const message = ofCaller
    ? `Graphic ${graphicId} already exists in this organisation (delete it first to replace it); nothing was stored.`
    : `Graphic id ${graphicId} is taken on this server by another organisation's graphic (graphic ids are unique on the server, since the public URL names a graphic by its id alone); nothing was stored.`;
  return new ApiError(ERROR_CODES.FW_GRA_3.status, 'FW_GRA_3', message, closing);
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
