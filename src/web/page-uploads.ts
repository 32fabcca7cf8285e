/**
 * The files of a posted page (file upload questions, signatures), stored before the engine reads the
 * page: a page with a file question posts `multipart/form-data`, whose file parts (`QID5_FILE`) stream
 * into the BlobStore (uploads.ts) within the question's size and type limits; a signature comes as a PNG
 * `data:` URL (`QID6_SIGNATURE`). Each question's stored upload reaches the engine as the server's own
 * field `_fw_upload_<QID>` (answers-input.ts), with `{error}` when the file was refused; a browser's own
 * field of that name is dropped. A file given before is kept (`_fw_keep_<QID>`) when it is the session's.
 */
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../deps.js';
import type { FormFields } from '../modules/engine/answers.js';
import { type StoredUpload, UPLOAD_FIELD } from '../modules/engine/answers-input.js';
import type { Question } from '../modules/engine/survey-model.js';
import {
  fileNameOf,
  fileTypeRefusal,
  isPng,
  keptUpload,
  SIGNATURE_BYTES,
  saveResponseFile,
  tooLargeMessage,
  type UploadPlace,
  UploadTooLargeError,
  uploadLimitsOf,
} from '../modules/engine/uploads.js';
import { KEEP_FIELD } from './views/input-views.js';

type Outcome = StoredUpload | { error: string };

/** The fields of a multipart page, its files stored as they stream in. */
export async function readMultipartPage(
  deps: Deps,
  request: FastifyRequest,
  place: UploadPlace,
  questions: ReadonlyMap<string, Question>,
): Promise<{ form: FormFields; uploads: Map<string, Outcome> }> {
  const form: FormFields = {};
  const uploads = new Map<string, Outcome>();
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      const values = form[part.fieldname] ?? [];
      values.push(String(part.value));
      form[part.fieldname] = values;
      continue;
    }
    const question = questions.get(part.fieldname.replace(/_FILE$/, ''));
    if (question?.kind !== 'file' || !part.filename) {
      part.file.resume();
      continue;
    }
    uploads.set(question.id, await storeFile(deps, place, question, part));
  }
  return { form, uploads };
}

interface FilePart {
  filename: string;
  mimetype: string;
  file: AsyncIterable<Uint8Array> & { resume(): void };
}

async function storeFile(
  deps: Deps,
  place: UploadPlace,
  question: Question,
  part: FilePart,
): Promise<Outcome> {
  const { maxBytes } = uploadLimitsOf(question);
  const name = fileNameOf(part.filename);
  const refusal = fileTypeRefusal(question, name);
  if (refusal) {
    part.file.resume();
    return { error: refusal };
  }
  try {
    const { id, size } = await saveResponseFile(deps, place, part.file, maxBytes);
    if (size === 0) return { error: 'The file is empty. Please choose another file.' };
    return { id, name, size, type: part.mimetype || 'application/octet-stream' };
  } catch (error) {
    if (!(error instanceof UploadTooLargeError)) throw error;
    part.file.resume();
    return { error: tooLargeMessage(maxBytes) };
  }
}

/**
 * The page's form as the engine reads it: the uploads of this post, signatures stored, files kept from
 * before, and no `_fw_upload_` field of the browser's own.
 */
export async function withUploads(
  deps: Deps,
  place: UploadPlace,
  questions: ReadonlyMap<string, Question>,
  posted: FormFields,
  uploads: Map<string, Outcome> = new Map(),
): Promise<FormFields> {
  const form = Object.fromEntries(Object.entries(posted).filter(([name]) => !name.startsWith(UPLOAD_FIELD)));
  for (const question of questions.values()) {
    if (question.kind !== 'file' && question.kind !== 'signature') continue;
    const outcome =
      uploads.get(question.id) ??
      (question.kind === 'signature'
        ? await storeSignature(deps, place, posted[`${question.id}_SIGNATURE`]?.[0])
        : undefined) ??
      (await kept(deps, place, posted[`${KEEP_FIELD}${question.id}`]?.[0]));
    if (outcome) form[`${UPLOAD_FIELD}${question.id}`] = [JSON.stringify(outcome)];
  }
  return form;
}

async function storeSignature(
  deps: Deps,
  place: UploadPlace,
  dataUrl: string | undefined,
): Promise<Outcome | undefined> {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(dataUrl ?? '');
  if (!match?.[1]) return undefined;
  const bytes = Buffer.from(match[1], 'base64');
  if (bytes.length > SIGNATURE_BYTES || !isPng(bytes))
    return { error: 'The signature could not be read. Please sign again.' };
  const { id, size } = await saveResponseFile(deps, place, [bytes], SIGNATURE_BYTES);
  return { id, name: 'signature.png', size, type: 'image/png' };
}

async function kept(deps: Deps, place: UploadPlace, raw: string | undefined): Promise<Outcome | undefined> {
  if (!raw) return undefined;
  try {
    const upload = JSON.parse(raw) as StoredUpload;
    return await keptUpload(deps, place, {
      id: String(upload.id),
      name: String(upload.name).slice(0, 255),
      size: 0,
      type: String(upload.type).slice(0, 255),
    });
  } catch {
    return undefined;
  }
}
