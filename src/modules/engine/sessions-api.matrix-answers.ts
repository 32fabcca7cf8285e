/**
 * The sessions API's answers of matrix text entry (`{"<row>": {"<column>": "text"}}`, also a side-by-side
 * text column), constant sum and rank order matrices (`{"<row>": {"<column>": 60}}`) and pick-group-rank
 * (`{"<item>": {"group": 0, "rank": 1}}`), both ways (sessions-api.answers.ts does the other types; a
 * profile matrix is answered as a single-answer matrix, each row from its own scale).
 */
import { ApiError } from '../../http/errors.js';
import { isObject } from '../surveys/definition/is-object.js';
import { groupKey, rankKey } from '../surveys/definition/pick-group-rank.js';
import type { FormFields, QuestionFields } from './answers.js';
import type { Question } from './survey-model.js';

const bad = (field: string, problem: string) => ApiError.invalid(field, problem);
const isScalar = (v: unknown): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** `{"<row>": {"<column>": "text"}}` → `<prefix>_<row>_<column>` fields. */
export function textMatrixFields(form: FormFields, prefix: string, value: unknown, field: string): void {
  if (!isObject(value)) throw bad(field, 'must be an object of row ids to {"<column id>": "text"}');
  for (const [row, cells] of Object.entries(value)) {
    if (!isObject(cells)) throw bad(`${field}.${row}`, 'must be an object of column ids to texts');
    for (const [column, text] of Object.entries(cells)) {
      if (typeof text !== 'string') throw bad(`${field}.${row}.${column}`, 'must be a string');
      form[`${prefix}_${row}_${column}`] = [text];
    }
  }
}

/**
 * `{"<row>": {"<column>": n}}` of a constant sum or rank order matrix → `<id>_<row>_<column>` fields; the
 * page's reader checks them (answers-matrix-cells.ts: totals per column, distinct ranks per column).
 */
export function numberMatrixFields(form: FormFields, id: string, value: unknown, field: string): void {
  if (!isObject(value)) throw bad(field, 'must be an object of row ids to {"<column id>": number}');
  for (const [row, cells] of Object.entries(value)) {
    if (!isObject(cells)) throw bad(`${field}.${row}`, 'must be an object of column ids to numbers');
    for (const [column, n] of Object.entries(cells)) {
      if (!isScalar(n)) throw bad(`${field}.${row}.${column}`, 'must be a number');
      form[`${id}_${row}_${column}`] = [String(n)];
    }
  }
}

/** `{"<item>": {"group": 0, "rank": 1}}` → the page's `QID_<item>_GROUP` and `QID_<item>_RANK` fields. */
export function pickGroupRankFields(form: FormFields, question: Question, value: unknown, field: string) {
  if (!isObject(value)) throw bad(field, 'must be an object of item ids to {"group": <index>, "rank"?: n}');
  for (const [item, placed] of Object.entries(value)) {
    if (!isObject(placed) || !isScalar(placed.group))
      throw bad(`${field}.${item}`, 'must be {"group": <group index>, "rank"?: <rank in the group>}');
    form[`${question.id}_${item}_GROUP`] = [String(placed.group)];
    if (placed.rank !== undefined) {
      if (!isScalar(placed.rank)) throw bad(`${field}.${item}.rank`, 'must be a number');
      form[`${question.id}_${item}_RANK`] = [String(placed.rank)];
    }
  }
}

/** A text matrix's stored cells in the API shape (undefined when none). */
export function apiTextMatrix(question: Question, prefix: string, fields: QuestionFields) {
  const out: Record<string, Record<string, string>> = {};
  for (const row of question.choices)
    for (const answer of question.answers) {
      const text = fields[`${prefix}_${row.id}_${answer.id}`]?.[0];
      if (text !== undefined) out[row.id] = { ...out[row.id], [answer.id]: text };
    }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A constant sum or rank order matrix's stored numbers in the API shape (undefined when none). */
export function apiNumberMatrix(question: Question, fields: QuestionFields) {
  const out: Record<string, Record<string, number>> = {};
  for (const row of question.choices)
    for (const answer of question.answers) {
      const n = fields[`${question.id}_${row.id}_${answer.id}`]?.[0];
      if (n !== undefined && n !== '') out[row.id] = { ...out[row.id], [answer.id]: Number(n) };
    }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A pick-group-rank answer in the API shape. */
export function apiPickGroupRank(question: Question, fields: QuestionFields) {
  const out: Record<string, { group: number; rank: number }> = {};
  (question.groups ?? []).forEach((_, group) => {
    for (const item of question.choices) {
      if (!fields[groupKey(question.id, group, item.id)]) continue;
      out[item.id] = { group, rank: Number(fields[rankKey(question.id, group, item.id)]?.[0]) };
    }
  });
  return Object.keys(out).length > 0 ? out : undefined;
}
