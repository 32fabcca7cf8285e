/**
 * Reading the matrix variations whose cells are not one scale for every row (answers.ts; value keys in
 * surveys/definition/matrix-scales.ts): a profile matrix (each row its own scale points), and constant
 * sum and rank order matrices (a number per row and column, `QID1_<row>_<column>`).
 */
import { plainText as plain } from '../surveys/definition/value-keys.js';
import type { FormFields, QuestionFields } from './answers.js';
import type { Read } from './answers-matrix.js';
import type { Choice, Question } from './survey-model.js';

const first = (form: FormFields, key: string): string => form[key]?.[0] ?? '';

/** Profile: one point per row (`QID1_<row>`), from that row's own scale. */
export function readProfile(question: Question, form: FormFields, rows: Choice[]): Read {
  const fields: QuestionFields = {};
  for (const row of rows) {
    const key = `${question.id}_${row.id}`;
    const points = new Set((question.rowAnswers?.[row.id] ?? []).map((a) => a.id));
    const picked = [...new Set(form[key] ?? [])].filter((v) => v !== '');
    if (picked.some((p) => !points.has(p))) return { fields: {}, error: 'That answer is not offered here.' };
    if (picked.length > 1) return { fields: {}, error: `Choose one answer for “${plain(row.text)}”.` };
    if (picked.length > 0) fields[key] = picked;
  }
  return { fields };
}

/**
 * Constant sum matrix: a number (0 or more) per row and column; with a set total (`ChoicesTotal`), the
 * numbers given in each column must add up to it (each column is one sum, as the platform shows a total
 * at the foot of each; our reading). A column left empty is not checked. The numbers given stay on the
 * page shown again.
 */
export function readSumMatrix(question: Question, form: FormFields, rows: Choice[]): Read {
  const fields: QuestionFields = {};
  const total = question.constantSum?.total;
  let error: string | undefined;
  for (const column of question.answers) {
    let sum = 0;
    let given = 0;
    for (const row of rows) {
      const name = `${question.id}_${row.id}_${column.id}`;
      const raw = first(form, name).trim();
      if (raw === '') continue;
      const n = Number(raw);
      if (!Number.isFinite(n) || n < 0) error ??= 'Enter a number of 0 or more in each box.';
      fields[name] = [Number.isFinite(n) ? String(n) : raw];
      sum += Number.isFinite(n) ? n : 0;
      given += 1;
    }
    // Rounded so that 33.3 + 33.3 + 33.4 is 100.
    if (total !== undefined && given > 0 && Math.round((sum - total) * 1e6) !== 0) {
      const label = question.answers.length > 1 ? ` in “${plain(column.text)}”` : '';
      error ??= `The numbers${label} must add up to ${total} (they add up to ${Math.round(sum * 1e6) / 1e6}).`;
    }
  }
  return error ? { fields, error } : { fields };
}

/**
 * Rank order matrix: in each column the rows are ranked 1..n, each rank once (a column left empty is not
 * ranked; part of one is refused).
 */
export function readRankMatrix(question: Question, form: FormFields, rows: Choice[]): Read {
  const fields: QuestionFields = {};
  let error: string | undefined;
  for (const column of question.answers) {
    const ranks = rows.map((row) => first(form, `${question.id}_${row.id}_${column.id}`).trim());
    if (ranks.every((r) => r === '')) continue;
    const numbers = ranks.map(Number);
    const valid =
      numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= rows.length) &&
      new Set(numbers).size === rows.length;
    const label = question.answers.length > 1 ? ` in “${plain(column.text)}”` : '';
    if (!valid) error ??= `Give each row${label} a different rank from 1 to ${rows.length}.`;
    // The ranks given stay on the page shown again, so only the wrong ones need changing.
    rows.forEach((row, i) => {
      if (ranks[i] !== '') fields[`${question.id}_${row.id}_${column.id}`] = [ranks[i] as string];
    });
  }
  return error ? { fields, error } : { fields };
}
