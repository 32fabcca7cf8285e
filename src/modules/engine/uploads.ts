/**
 * Files respondents give (file upload questions) and signatures they draw, kept in the BlobStore under
 * their organisation and session: `<orgId>/response-files/<FS_ session>/<F_ file>`. A page keeps a file
 * given before only when it is one of the same session's (a posted id cannot name another respondent's
 * file). The survey's owner reads them back through
 * `GET /v3/surveys/{surveyId}/responses/{responseId}/uploaded-files/{fileId}` (uploaded-files.routes.ts).
 */
import type { Readable } from 'node:stream';
import { fromJson } from '../../db/json.js';
import type { Deps } from '../../deps.js';
import { BlobNotFoundError } from '../../files/blob-store.js';
import { ApiError } from '../../http/errors.js';
import { randomAlphanumeric } from '../../http/ids.js';
import type { Principal } from '../../http/principal.js';
import { jobBlobs } from '../../jobs/job-files.js';
import { getResponse } from '../responses/responses.service.js';
import type { StoredUpload } from './answers-input.js';
import { DEFAULT_UPLOAD_BYTES } from './question-model-input.js';
import type { Question } from './survey-model.js';

export interface UploadPlace {
  organizationId: string;
  sessionId: string;
}

/** A file longer than its question takes: the save fails and nothing is kept. */
export class UploadTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
  }
}

const fileKey = (place: UploadPlace, fileId: string) =>
  `${place.organizationId}/response-files/${place.sessionId}/${fileId}`;

/** A signature's PNG, at most 1 MB (a 600×200 drawing is a few KB). */
export const SIGNATURE_BYTES = 1024 * 1024;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Is this a PNG (its signature bytes)? */
export const isPng = (bytes: Buffer) => bytes.subarray(0, 8).equals(PNG);

/** A file's name as kept: no path separators, at most 255 characters. */
export const fileNameOf = (name: string) => name.replace(/[\\/]/g, '_').slice(0, 255);

/** A file upload question's limits (question-model-input.ts): the largest size, the endings taken. */
export const uploadLimitsOf = (question: Question) =>
  question.upload ?? { maxBytes: DEFAULT_UPLOAD_BYTES, extensions: [] };

/** Why the question refuses a file of this name (its ending is not one it takes), if it does. */
export function fileTypeRefusal(question: Question, name: string): string | undefined {
  const { extensions } = uploadLimitsOf(question);
  const ending = /\.([A-Za-z0-9]{1,10})$/.exec(name)?.[1]?.toLowerCase() ?? '';
  if (extensions.length > 0 && !extensions.includes(ending))
    return `Please upload a file of one of these types: ${extensions.join(', ')}.`;
  return undefined;
}

/** The refusal of a file larger than the question takes. */
export const tooLargeMessage = (maxBytes: number) =>
  `The file is too large. Please upload a file of at most ${Math.round(maxBytes / 1024 / 1024)} MB.`;

/** Streams a file into the BlobStore, at most `maxBytes`; answers its new id (`F_…`) and size. */
export async function saveResponseFile(
  deps: Deps,
  place: UploadPlace,
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  maxBytes: number,
): Promise<{ id: string; size: number }> {
  const id = `F_${randomAlphanumeric(15)}`;
  let size = 0;
  async function* counted() {
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size > maxBytes) throw new UploadTooLargeError(maxBytes);
      // The BlobStore must not see a buffer reused by the source.
      yield Buffer.from(chunk);
    }
  }
  await jobBlobs(deps).save(fileKey(place, id), counted());
  return { id, size };
}

/** Removes files saved for a page that was then refused (nothing of the session names them). */
export async function removeResponseFiles(deps: Deps, place: UploadPlace, fileIds: string[]): Promise<void> {
  const blobs = jobBlobs(deps);
  for (const id of fileIds) await blobs.remove(fileKey(place, id));
}

/** The upload a page posts back to keep, when it is a file of this session; its size as stored. */
export async function keptUpload(
  deps: Deps,
  place: UploadPlace,
  upload: StoredUpload,
): Promise<StoredUpload | undefined> {
  if (!/^F_[A-Za-z0-9]{15}$/.test(upload.id)) return undefined;
  const info = await jobBlobs(deps).stat(fileKey(place, upload.id));
  return info ? { ...upload, size: info.size } : undefined;
}

export interface ResponseFile {
  stream: Readable;
  name: string;
  type: string;
  size: number;
}

/**
 * A file of a response, for whoever may read the response (`GET …/responses/{id}`'s rules: another
 * organisation's survey is not found). The file must be one the response names (`QIDn_FILE_ID`).
 */
export async function openResponseFile(
  deps: Deps,
  principal: Principal,
  surveyId: string,
  responseId: string,
  fileId: string,
): Promise<ResponseFile> {
  const { row } = await getResponse(deps, principal, surveyId, responseId);
  const values = fromJson<Record<string, unknown>>(row.values);
  const key = Object.keys(values).find((k) => k.endsWith('_FILE_ID') && values[k] === fileId);
  if (!key || !row.session_id) throw fileNotFound(fileId);
  const prefix = key.slice(0, -'_FILE_ID'.length);
  const place = { organizationId: row.organization_id, sessionId: row.session_id };
  const blobs = jobBlobs(deps);
  const info = await blobs.stat(fileKey(place, fileId));
  if (!info) throw fileNotFound(fileId);
  try {
    return {
      stream: await blobs.open(fileKey(place, fileId)),
      name: String(values[`${prefix}_FILE_NAME`] ?? fileId),
      type: String(values[`${prefix}_FILE_TYPE`] ?? 'application/octet-stream'),
      size: info.size,
    };
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw fileNotFound(fileId);
    throw error;
  }
}

const fileNotFound = (fileId: string) =>
  ApiError.of('FW_RSP_4', `No uploaded file ${fileId} in this response.`);
