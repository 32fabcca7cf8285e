/**
 * Reading the matrix-like and ranking types of a page's form (answers.ts): matrix text entry (and
 * side-by-side text columns), constant sum and pick-group-rank. Each answer is kept under the value keys
 * the response records (`QID1_2_1`, `QID5_3`, `QID7_0_GROUP_2`, `QID7_G0_2_RANK`).
 */
import { groupKey, rankKey } from '../surveys/definition/pick-group-rank.js';
import { plainText as plain } from '../surveys/definition/value-keys.js';
import type { FormFields, QuestionFields } from './answers.js';
import type { Choice, Question } from './survey-model.js';
import { textProblem } from './text-validation.js';

const MAX_TEXT = 20_000;
const first = (form: FormFields, key: string): string => form[key]?.[0] ?? '';

export interface Read {
  fields: QuestionFields;
  error?: string;
}

/**
 * One text per row and column: `<prefix>_<row>_<column>` (prefix `QID1`, or `QID8#2` for a side-by-side
 * column), each box checked by the question's validation (a number in bounds, an e-mail address, a
 * length ...): the message names the first box refused, and the page marks every one (`cellProblem`).
 */
export function readTextMatrix(question: Question, prefix: string, form: FormFields, rows: Choice[]): Read {
  const fields: QuestionFields = {};
  const refused: string[] = [];
  for (const row of rows)
    for (const answer of question.answers) {
      const name = `${prefix}_${row.id}_${answer.id}`;
      const value = first(form, name).slice(0, MAX_TEXT);
      if (value.trim() === '') continue;
      fields[name] = [value];
      const problem = cellProblem(question, value);
      if (problem) refused.push(`${plain(row.text)}, ${plain(answer.text)}: ${problem}`);
    }
  if (refused.length === 0) return { fields };
  const more =
    refused.length > 1
      ? ` (${refused.length - 1} more box${refused.length > 2 ? 'es' : ''} marked below)`
      : '';
  return { fields, error: `${refused[0]}${more}` };
}

/** Why one text box of a text matrix cannot be taken (the question's `ContentType` or length), if it cannot. */
export function cellProblem(question: Question, value: string): string | undefined {
  const numeric = question.validation?.numeric;
  if (numeric) {
    const n = Number(value.trim());
    const { min, max } = numeric;
    if (!Number.isFinite(n) || (min !== undefined && n < min) || (max !== undefined && n > max))
      return `Please enter a number${min !== undefined && max !== undefined ? ` between ${min} and ${max}` : ''}.`;
  }
  return question.validation?.text ? textProblem(question.validation.text, value) : undefined;
}

export const cellNames = (question: Question, prefix: string, rows: Choice[]) =>
  rows.flatMap((row) => question.answers.map((answer) => `${prefix}_${row.id}_${answer.id}`));

/** Constant sum: a number (0 or more) per choice; with a set total, the numbers given must add up to it. */
export function readConstantSum(question: Question, form: FormFields, choices: Choice[]): Read {
  const fields: QuestionFields = {};
  let sum = 0;
  for (const choice of choices) {
    const key = `${question.id}_${choice.id}`;
    const raw = first(form, key).trim();
    if (raw === '') continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0)
      return { fields: {}, error: 'Enter a number of 0 or more for each item.' };
    fields[key] = [String(value)];
    sum += value;
  }
  const total = question.constantSum?.total;
  // Rounded so that 33.3 + 33.3 + 33.4 is 100.
  if (total !== undefined && Object.keys(fields).length > 0 && Math.round((sum - total) * 1e6) !== 0)
    return { fields, error: `The numbers must add up to ${total} (they add up to ${round(sum)}).` };
  return { fields };
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * Pick, group and rank: each item's group (`QID7_<item>_GROUP`, the group's index; empty: not placed) and
 * its rank within the group (`QID7_<item>_RANK`). Ranks left empty in a group follow the items' order on
 * the page; given ones must be 1..n, each once, within the group.
 */
export function readPickGroupRank(question: Question, form: FormFields, items: Choice[]): Read {
  const groups = question.groups ?? [];
  const placed = new Map<number, { item: Choice; rank: string }[]>();
  for (const item of items) {
    const raw = first(form, `${question.id}_${item.id}_GROUP`).trim();
    if (raw === '') continue;
    const group = Number(raw);
    if (!Number.isInteger(group) || group < 0 || group >= groups.length)
      return { fields: {}, error: 'That group is not offered here.' };
    const rank = first(form, `${question.id}_${item.id}_RANK`).trim();
    placed.set(group, [...(placed.get(group) ?? []), { item, rank }]);
  }
  const fields: QuestionFields = {};
  for (const [group, members] of placed) {
    const ranks = rankWithin(members.map((m) => m.rank));
    if (!ranks)
      return {
        fields: {},
        error: `Give each item in “${groups[group]}” a different rank from 1 to ${members.length}.`,
      };
    members.forEach(({ item }, i) => {
      fields[groupKey(question.id, group, item.id)] = ['1'];
      fields[rankKey(question.id, group, item.id)] = [String(ranks[i])];
    });
  }
  return { fields };
}

/** Ranks all empty → 1..n in order; all given → checked to be 1..n once each; a mix is refused. */
function rankWithin(given: string[]): number[] | undefined {
  if (given.every((r) => r === '')) return given.map((_, i) => i + 1);
  const numbers = given.map(Number);
  const valid =
    numbers.every((n) => Number.isInteger(n) && n >= 1 && n <= given.length) &&
    new Set(numbers).size === given.length;
  return valid ? numbers : undefined;
}

/** Answered: every cell of a text, constant sum or rank matrix, every item of a constant sum, any item placed in a group. */
export function isAnsweredMatrixLike(
  question: Question,
  fields: QuestionFields,
  choices: Choice[],
): boolean | undefined {
  const filled = (key: string) => (fields[key] ?? []).some((v) => v !== '');
  switch (question.kind) {
    case 'matrix-text':
    case 'matrix-cs':
    case 'matrix-rank':
      return cellNames(question, question.id, choices).every(filled);
    case 'constant-sum':
      return choices.every((c) => filled(`${question.id}_${c.id}`));
    case 'pgr':
      return Object.keys(fields).some(filled);
    default:
      return undefined;
  }
}
