/**
 * The sessions API's answers of file upload, signature, heat map and hot spot questions, both ways
 * (sessions-api.answers.ts does the other types). The spec and COMPAT.md give no shape for them; ours:
 *
 * - a file: `{"name": "cv.pdf", "type": "application/pdf", "content": "<base64>"}`, within the question's
 *   size and type limits (uploads.ts, as a page's upload); a signature: `{"content": "<base64 PNG>"}`
 *   (at most 1 MB, stored as `signature.png`). Read back as `{"fileId", "name", "size", "type"}`; posting
 *   that back (`{"fileId": "F_…"}`) keeps a file the session was given before, as a page does.
 * - a heat map: the click `{"x": 300, "y": 50}` in the image's pixels (its region found by the engine), or
 *   a region without a point `{"region": "2"}`; read back as `{"x", "y", "region"}`.
 * - a hot spot: each region's state, `{"1": "on", "2": "off"}`, or for a like/dislike one
 *   `{"1": "like", "2": "dislike", "3": "neither"}`; read back the same (regions left at neither: none).
 *
 * Files are checked here, before anything is stored: a refused file is a 400 and nothing is kept.
 */
import { ApiError } from '../../http/errors.js';
import { isObject } from '../surveys/definition/is-object.js';
import type { FormFields, QuestionFields } from './answers.js';
import { HOT_SPOT_STATES } from './answers-map.js';
import type { Question } from './survey-model.js';
import { fileNameOf, fileTypeRefusal, isPng, SIGNATURE_BYTES, uploadLimitsOf } from './uploads.js';

const bad = (field: string, problem: string) => ApiError.invalid(field, problem);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const FILE_ID = /^F_[A-Za-z0-9]{15}$/;

/** A file an API answer gives: new bytes to store, or a file of the session to keep. */
export type GivenFile =
  | { questionId: string; kind: 'new'; name: string; type: string; bytes: Buffer }
  | { questionId: string; kind: 'keep'; fileId: string; name: string; type: string };

const text = (value: unknown, field: string, fallback: string): string => {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value.trim() === '' || value.length > 255)
    throw bad(field, 'must be a non-empty string of at most 255 characters');
  return value;
};

/** A file or signature answer, checked against the question's limits (nothing is stored yet). */
export function givenFile(question: Question, value: unknown, field: string): GivenFile {
  const signature = question.kind === 'signature';
  if (!isObject(value))
    throw bad(
      field,
      signature
        ? 'must be {"content": "<base64 PNG>"} or {"fileId": "<F_ id>"}'
        : 'must be {"name", "type", "content": "<base64>"} or {"fileId": "<F_ id>"}',
    );
  if (value.content === undefined && value.fileId !== undefined) {
    if (typeof value.fileId !== 'string' || !FILE_ID.test(value.fileId))
      throw bad(`${field}.fileId`, 'must be the id of a file given before (F_…)');
    const name = text(value.name, `${field}.name`, signature ? 'signature.png' : value.fileId);
    const type = text(value.type, `${field}.type`, signature ? 'image/png' : 'application/octet-stream');
    return { questionId: question.id, kind: 'keep', fileId: value.fileId, name: fileNameOf(name), type };
  }
  const content = value.content;
  if (typeof content !== 'string' || content.length % 4 !== 0 || !BASE64.test(content))
    throw bad(`${field}.content`, 'must be the file in base64');
  // The size before decoding: an oversized file is refused without holding its bytes twice.
  const size = Buffer.byteLength(content, 'base64');
  const maxBytes = signature ? SIGNATURE_BYTES : uploadLimitsOf(question).maxBytes;
  if (size === 0) throw bad(`${field}.content`, 'is empty');
  if (size > maxBytes)
    throw bad(`${field}.content`, `is larger than this question takes (${maxBytes} bytes)`);
  const bytes = Buffer.from(content, 'base64');
  if (signature) {
    if (!isPng(bytes)) throw bad(`${field}.content`, 'must be a PNG image');
    if (value.type !== undefined && value.type !== 'image/png')
      throw bad(`${field}.type`, 'must be image/png');
    return { questionId: question.id, kind: 'new', name: 'signature.png', type: 'image/png', bytes };
  }
  const name = fileNameOf(text(value.name, `${field}.name`, ''));
  if (name === '') throw bad(`${field}.name`, 'is required');
  const refusal = fileTypeRefusal(question, name);
  if (refusal) throw bad(`${field}.name`, `is not a type this question takes (${refusal})`);
  const type = text(value.type, `${field}.type`, 'application/octet-stream');
  return { questionId: question.id, kind: 'new', name, type, bytes };
}

const coordinate = (value: unknown, field: string): string => {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw bad(field, 'must be a number of pixels, 0 or more');
  return String(value);
};

/** `{"x": 300, "y": 50}` or `{"region": "2"}` → the page's heat map fields. */
export function heatMapFields(form: FormFields, question: Question, value: unknown, field: string): void {
  const id = question.id;
  if (!isObject(value)) throw bad(field, 'must be {"x": <pixels>, "y": <pixels>} or {"region": "<id>"}');
  if (value.region !== undefined) {
    if (value.x !== undefined || value.y !== undefined)
      throw bad(field, 'takes a point or a region, not both');
    if (typeof value.region !== 'string') throw bad(`${field}.region`, 'must be a region id');
    form[id] = [value.region];
    return;
  }
  form[`${id}_1_x`] = [coordinate(value.x, `${field}.x`)];
  form[`${id}_1_y`] = [coordinate(value.y, `${field}.y`)];
}

const LIKE_DISLIKE: Record<string, string> = {
  neither: HOT_SPOT_STATES.neither,
  like: HOT_SPOT_STATES.like,
  dislike: HOT_SPOT_STATES.dislike,
};

/** `{"<region>": "on" | "off"}` (or like, dislike, neither) → the page's hot spot fields. */
export function hotSpotFields(form: FormFields, question: Question, value: unknown, field: string): void {
  const id = question.id;
  const likeDislike = question.map?.likeDislike === true;
  const states = likeDislike ? '"like", "dislike" or "neither"' : '"on" or "off"';
  if (!isObject(value)) throw bad(field, `must be an object of region ids to ${states}`);
  const regions = new Set(question.choices.map((c) => c.id));
  const on: string[] = [];
  for (const [region, state] of Object.entries(value)) {
    if (!regions.has(region)) throw bad(`${field}.${region}`, 'is not a region of this question');
    if (likeDislike && typeof state === 'string' && state in LIKE_DISLIKE)
      form[`${id}_${region}`] = [LIKE_DISLIKE[state] as string];
    else if (!likeDislike && (state === 'on' || state === 'off')) {
      if (state === 'on') on.push(region);
    } else throw bad(`${field}.${region}`, `must be ${states}`);
  }
  if (!likeDislike) form[id] = on;
}

/** A file or signature's stored fields as `{fileId, name, size, type}`. */
export function apiFile(question: Question, fields: QuestionFields) {
  const id = question.id;
  const fileId = fields[`${id}_FILE_ID`]?.[0];
  if (!fileId) return undefined;
  return {
    fileId,
    name: fields[`${id}_FILE_NAME`]?.[0] ?? '',
    size: Number(fields[`${id}_FILE_SIZE`]?.[0] ?? 0),
    type: fields[`${id}_FILE_TYPE`]?.[0] ?? '',
  };
}

export function apiHeatMap(question: Question, fields: QuestionFields) {
  const id = question.id;
  const x = fields[`${id}_1_x`]?.[0];
  const y = fields[`${id}_1_y`]?.[0];
  const region = fields[id]?.[0];
  const out = {
    ...(x !== undefined && y !== undefined ? { x: Number(x), y: Number(y) } : {}),
    ...(region ? { region } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

const RECORDED_STATES: Record<string, [string, string]> = { '1': ['on', 'like'], '2': ['off', 'dislike'] };

export function apiHotSpot(question: Question, fields: QuestionFields) {
  const out: Record<string, string> = {};
  for (const c of question.choices) {
    const state = RECORDED_STATES[fields[`${question.id}_${c.id}`]?.[0] ?? ''];
    if (state) out[c.id] = state[question.map?.likeDislike ? 1 : 0];
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
