/**
 * Reading one page's form submission into answers, and checking them: forced and requested responses,
 * numeric bounds, ranks, exclusive choices. An answer is kept as the raw form fields of its question
 * (`QID1`, `QID1_3_TEXT`, `QID5_2`, `QID4#1_3` ...), already cleaned of anything the page did not offer;
 * response.ts turns them into the response's value keys.
 */
import { plainText as plain } from '../surveys/definition/value-keys.js';
import { isAnsweredInput, readSliderInput, readUpload } from './answers-input.js';
import { readHeatMap, readHotSpot } from './answers-map.js';
import {
  cellNames,
  isAnsweredMatrixLike,
  readConstantSum,
  readPickGroupRank,
  readTextMatrix,
} from './answers-matrix.js';
import { readProfile, readRankMatrix, readSumMatrix } from './answers-matrix-cells.js';
import type { Answers } from './flow.js';
import type { Choice, Question } from './survey-model.js';
import { textProblem } from './text-validation.js';

export type FormFields = Record<string, string[]>;
export type QuestionFields = Record<string, string[]>;

export interface PageReading {
  answers: Answers;
  /** Question id → why the answer cannot be taken (blocks the page). */
  errors: Map<string, string>;
  /** Requested questions left empty: the respondent is asked once whether to continue without them. */
  requested: string[];
}

/** What the page showed of each question (choices after display logic and randomisation). */
export type ShownChoices = (question: Question) => Choice[];

const MAX_TEXT = 20_000;
export const FORCED_MESSAGE = 'Please answer this question.';
export const FORCED_ROWS_MESSAGE = 'Please answer every row of this question.';
export const REQUESTED_MESSAGE =
  'This question is not answered. Answer it, or choose “Continue without answering”.';

export function readPage(
  questions: Question[],
  form: FormFields,
  shown: ShownChoices,
  options: { continueWithoutRequested: boolean },
): PageReading {
  const reading: PageReading = { answers: {}, errors: new Map(), requested: [] };
  for (const question of questions) {
    const choices = shown(question);
    const { fields, error } = readQuestion(question, form, choices);
    reading.answers[question.id] = fields;
    const answered = isAnswered(question, fields, choices);
    if (error) reading.errors.set(question.id, error);
    else if (!answered && question.forced)
      reading.errors.set(question.id, EVERY_ROW.has(question.kind) ? FORCED_ROWS_MESSAGE : FORCED_MESSAGE);
    else if (!answered && question.requested && !options.continueWithoutRequested)
      reading.requested.push(question.id);
  }
  return reading;
}

/** Matrices, side-by-side questions, forms and sliders are answered when every row or field is. */
const EVERY_ROW = new Set(['matrix-single', 'matrix-multi', 'matrix-profile', 'sbs', 'form', 'slider']);

export function isAnswered(question: Question, fields: QuestionFields, choices: Choice[]): boolean {
  if (question.kind === 'descriptive' || question.kind === 'timing') return true;
  const input = isAnsweredInput(question, fields, choices);
  if (input !== undefined) return input;
  const matrixLike = isAnsweredMatrixLike(question, fields, choices);
  if (matrixLike !== undefined) return matrixLike;
  const filled = (key: string) => (fields[key] ?? []).some((v) => v !== '');
  if (question.kind === 'sbs') {
    const columns = question.columns.filter((c) => c.kind !== 'unsupported');
    return choices.every((row) =>
      columns.every((column) =>
        column.kind === 'matrix-text'
          ? cellNames(column, column.id, [row]).every(filled)
          : filled(`${column.id}_${row.id}`),
      ),
    );
  }
  if (EVERY_ROW.has(question.kind)) return choices.every((row) => filled(`${question.id}_${row.id}`));
  return Object.keys(fields).some(filled);
}

interface Read {
  fields: QuestionFields;
  error?: string;
}

function readQuestion(question: Question, form: FormFields, choices: Choice[]): Read {
  switch (question.kind) {
    case 'mc-single':
    case 'dropdown':
    case 'nps':
      return readChoices(question, form, choices, false);
    case 'mc-multi':
      return readChoices(question, form, choices, true);
    case 'text':
    case 'essay':
      return readText(question, form);
    case 'form':
      return {
        fields: texts(
          form,
          choices.map((c) => `${question.id}_${c.id}`),
        ),
      };
    case 'matrix-single':
    case 'matrix-multi':
      return readMatrix(question, question.id, form, choices);
    case 'sbs':
      return readSideBySide(question, form, choices);
    case 'slider':
      return readSliderInput(question, form, choices);
    case 'file':
    case 'signature':
      return readUpload(question, form);
    case 'rank':
      return readRank(question, form, choices);
    case 'matrix-text':
      return readTextMatrix(question, question.id, form, choices);
    case 'matrix-profile':
      return readProfile(question, form, choices);
    case 'matrix-cs':
      return readSumMatrix(question, form, choices);
    case 'matrix-rank':
      return readRankMatrix(question, form, choices);
    case 'constant-sum':
      return readConstantSum(question, form, choices);
    case 'pgr':
      return readPickGroupRank(question, form, choices);
    case 'heatmap':
      return readHeatMap(question, form, choices);
    case 'hotspot':
      return readHotSpot(question, form, choices);
    default:
      return { fields: {} };
  }
}

const first = (form: FormFields, key: string): string => form[key]?.[0] ?? '';

function texts(form: FormFields, keys: string[]): QuestionFields {
  const fields: QuestionFields = {};
  for (const key of keys) {
    const value = first(form, key).slice(0, MAX_TEXT);
    if (value.trim() !== '') fields[key] = [value];
  }
  return fields;
}

function readChoices(question: Question, form: FormFields, choices: Choice[], multi: boolean): Read {
  const offered = new Set(choices.map((c) => c.id));
  const picked = [...new Set(form[question.id] ?? [])].filter((v) => v !== '');
  if (picked.some((id) => !offered.has(id))) return { fields: {}, error: 'That choice is not offered here.' };
  if (!multi && picked.length > 1) return { fields: {}, error: 'Choose only one answer.' };
  const exclusive = choices.find((c) => c.exclusive && picked.includes(c.id));
  if (exclusive && picked.length > 1)
    return { fields: {}, error: `“${plain(exclusive.text)}” cannot be combined with other answers.` };
  const fields: QuestionFields = picked.length > 0 ? { [question.id]: picked } : {};
  const textKeys = choices.filter((c) => c.textEntry && picked.includes(c.id));
  Object.assign(
    fields,
    texts(
      form,
      textKeys.map((c) => `${question.id}_${c.id}_TEXT`),
    ),
  );
  return { fields };
}

function readText(question: Question, form: FormFields): Read {
  const key = `${question.id}_TEXT`;
  const fields = texts(form, [key]);
  const value = fields[key]?.[0];
  const numeric = question.validation?.numeric;
  if (value !== undefined && numeric) {
    const n = Number(value.trim());
    const { min, max } = numeric;
    if (!Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max)) {
      const range = min !== undefined && max !== undefined ? ` between ${min} and ${max}` : '';
      return { fields, error: `Please enter a number${range}.` };
    }
  }
  const problem =
    value === undefined || !question.validation?.text
      ? undefined
      : textProblem(question.validation.text, value);
  return problem ? { fields, error: problem } : { fields };
}

/** One row per choice; a single-answer row takes one scale point, a multi-answer row several. */
function readMatrix(question: Question, prefix: string, form: FormFields, rows: Choice[]): Read {
  const points = new Set(question.answers.map((a) => a.id));
  const fields: QuestionFields = {};
  for (const row of rows) {
    const key = `${prefix}_${row.id}`;
    const picked = [...new Set(form[key] ?? [])].filter((v) => v !== '');
    if (picked.some((p) => !points.has(p))) return { fields: {}, error: 'That answer is not offered here.' };
    if (question.kind !== 'matrix-multi' && picked.length > 1)
      return { fields: {}, error: `Choose one answer for “${plain(row.text)}”.` };
    if (picked.length > 0) fields[key] = picked;
  }
  return { fields };
}

function readSideBySide(question: Question, form: FormFields, rows: Choice[]): Read {
  const fields: QuestionFields = {};
  for (const column of question.columns) {
    if (column.kind === 'unsupported') continue;
    const read =
      column.kind === 'matrix-text'
        ? readTextMatrix(column, column.id, form, rows)
        : readMatrix(column, column.id, form, rows);
    if (read.error) return read;
    Object.assign(fields, read.fields);
  }
  return { fields };
}

/** Every item gets a different rank 1..n, or none is ranked. */
function readRank(question: Question, form: FormFields, items: Choice[]): Read {
  const ranks = items.map((item) => first(form, `${question.id}_${item.id}`).trim());
  if (ranks.every((r) => r === '')) return { fields: {} };
  const numbers = ranks.map(Number);
  const valid =
    numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= items.length) &&
    new Set(numbers).size === items.length;
  if (!valid) return { fields: {}, error: `Give each item a different rank from 1 to ${items.length}.` };
  const fields: QuestionFields = {};
  items.forEach((item, i) => {
    fields[`${question.id}_${item.id}`] = [String(numbers[i])];
  });
  return { fields };
}
