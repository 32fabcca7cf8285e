/**
 * Reading the answers of sliders (bars, stars, "not applicable"), file uploads and signatures from a
 * page's form (answers.ts dispatches here). A file or a drawing reaches the form as the upload the server
 * stored (`_fw_upload_<QID>`, set by the web layer after saving the bytes in the BlobStore; a browser's
 * own field of that name is dropped before), and is kept under the value keys `QID5_FILE_ID`,
 * `QID5_FILE_NAME`, `QID5_FILE_SIZE`, `QID5_FILE_TYPE`.
 */
import type { Choice, Question } from './survey-model.js';

type Fields = Record<string, string[]>;

/** The form field the server sets to the upload it stored for a question (JSON of `StoredUpload`). */
export const UPLOAD_FIELD = '_fw_upload_';
/** A "not applicable" box of a slider statement: `QID3_1_NA`. */
export const NOT_APPLICABLE = '_NA';

export interface StoredUpload {
  id: string;
  name: string;
  size: number;
  type: string;
}

const filled = (fields: Fields, key: string) => (fields[key] ?? []).some((v) => v !== '');

/** Answered or not, for the kinds of this file; undefined for the others. */
export function isAnsweredInput(question: Question, fields: Fields, choices: Choice[]): boolean | undefined {
  const id = question.id;
  switch (question.kind) {
    case 'meta':
      return true;
    case 'slider':
      return choices.every(
        (c) => filled(fields, `${id}_${c.id}`) || filled(fields, `${id}_${c.id}${NOT_APPLICABLE}`),
      );
    case 'file':
    case 'signature':
      return filled(fields, `${id}_FILE_ID`);
    default:
      return undefined;
  }
}

/** One value per statement, within the scale and on its steps; "not applicable" instead of a value. */
export function readSliderInput(question: Question, form: Fields, choices: Choice[]) {
  const { min, max, step, decimals, notApplicable } = question.slider ?? {
    min: 0,
    max: 100,
    step: 1,
    decimals: 0,
    notApplicable: false,
  };
  const fields: Fields = {};
  for (const choice of choices) {
    const key = `${question.id}_${choice.id}`;
    if (notApplicable && form[`${key}${NOT_APPLICABLE}`]?.[0] === '1') {
      fields[`${key}${NOT_APPLICABLE}`] = ['1'];
      continue;
    }
    const raw = form[key]?.[0]?.trim() ?? '';
    if (raw === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min || value > max)
      return { fields: {}, error: `Choose a value between ${min} and ${max}.` };
    // A value between steps goes to the nearest step, as the handle snaps.
    const snapped = Math.min(max, min + Math.round((value - min) / step) * step);
    fields[key] = [String(Number(snapped.toFixed(Math.max(decimals, stepDecimals(step)))))];
  }
  return { fields };
}

const stepDecimals = (step: number) => (String(step).split('.')[1] ?? '').length;

/** The upload the server stored for the question on this post, as value-key fields. */
export function readUpload(question: Question, form: Fields) {
  const raw = form[`${UPLOAD_FIELD}${question.id}`]?.[0];
  if (!raw) return { fields: {} };
  const upload = JSON.parse(raw) as StoredUpload | { error: string };
  if ('error' in upload) return { fields: {}, error: upload.error };
  const id = question.id;
  return {
    fields: {
      [`${id}_FILE_ID`]: [upload.id],
      [`${id}_FILE_NAME`]: [upload.name],
      [`${id}_FILE_SIZE`]: [String(upload.size)],
      [`${id}_FILE_TYPE`]: [upload.type],
    },
  };
}
