import { describe, expect, it } from 'vitest';
import { cellProblem, readConstantSum, readPickGroupRank, readTextMatrix } from './answers-matrix.js';
import { readProfile, readRankMatrix, readSumMatrix } from './answers-matrix-cells.js';
import type { Choice, Question } from './survey-model.js';

const choice = (id: string, text = `Item ${id}`): Choice => ({
  id,
  text,
  recode: id,
  textEntry: false,
  exclusive: false,
});
const items = ['1', '2', '3'].map((id) => choice(id));
const base: Question = {
  id: 'QID9',
  kind: 'constant-sum',
  type: 'CS/VRTL',
  text: 'Split',
  choices: items,
  answers: [],
  columns: [],
  horizontal: false,
  dropdown: false,
  forced: false,
  requested: false,
  skipLogic: [],
};

describe('constant sum', () => {
  const question = { ...base, constantSum: { total: 100 } };
  it('takes numbers that reach the total, decimals rounded as people add them', () => {
    const read = readConstantSum(question, { QID9_1: ['33.3'], QID9_2: ['33.3'], QID9_3: ['33.4'] }, items);
    expect(read).toEqual({ fields: { QID9_1: ['33.3'], QID9_2: ['33.3'], QID9_3: ['33.4'] } });
  });
  it('refuses a sum off the total, a negative number and a word', () => {
    expect(readConstantSum(question, { QID9_1: ['60'], QID9_2: ['30'] }, items).error).toBe(
      'The numbers must add up to 100 (they add up to 90).',
    );
    expect(readConstantSum(question, { QID9_1: ['-5'] }, items).error).toMatch(/0 or more/);
    expect(readConstantSum(question, { QID9_1: ['lots'] }, items).error).toMatch(/0 or more/);
  });
  it('without a total, and when nothing is given, takes what there is', () => {
    expect(readConstantSum(base, { QID9_1: ['7'] }, items)).toEqual({ fields: { QID9_1: ['7'] } });
    expect(readConstantSum(question, {}, items)).toEqual({ fields: {} });
  });
});

describe('pick, group and rank', () => {
  const question: Question = { ...base, kind: 'pgr', groups: ['Keep', 'Give'] };
  it('ranks a group in page order when no rank is given, and keeps given ranks', () => {
    const read = readPickGroupRank(
      question,
      { QID9_1_GROUP: ['0'], QID9_2_GROUP: ['1'], QID9_3_GROUP: ['0'], QID9_2_RANK: ['1'] },
      items,
    );
    expect(read.fields).toEqual({
      QID9_0_GROUP_1: ['1'],
      QID9_G0_1_RANK: ['1'],
      QID9_0_GROUP_3: ['1'],
      QID9_G0_3_RANK: ['2'],
      QID9_1_GROUP_2: ['1'],
      QID9_G1_2_RANK: ['1'],
    });
  });
  it('refuses a group not offered and a rank given to only some of a group', () => {
    expect(readPickGroupRank(question, { QID9_1_GROUP: ['2'] }, items).error).toBe(
      'That group is not offered here.',
    );
    const mixed = { QID9_1_GROUP: ['0'], QID9_2_GROUP: ['0'], QID9_1_RANK: ['1'] };
    expect(readPickGroupRank(question, mixed, items).error).toBe(
      'Give each item in “Keep” a different rank from 1 to 2.',
    );
  });
});

describe('matrix text entry', () => {
  it('keeps the texts of the rows and columns shown, and nothing else', () => {
    const question: Question = { ...base, kind: 'matrix-text', answers: [choice('1'), choice('2')] };
    const form = { QID9_1_1: ['a'], QID9_1_2: ['  '], QID9_4_1: ['not shown'], QID9_2_2: ['b'] };
    expect(readTextMatrix(question, 'QID9', form, items.slice(0, 2)).fields).toEqual({
      QID9_1_1: ['a'],
      QID9_2_2: ['b'],
    });
  });
});

describe('matrix text entry, each cell validated', () => {
  const columns = [choice('1', 'Email'), choice('2', 'Other')];
  it('names the first box refused and counts the rest; boxes that pass are taken', () => {
    const question: Question = {
      ...base,
      kind: 'matrix-text',
      answers: columns,
      validation: { text: { kind: 'email' } },
    };
    const form = { QID9_1_1: ['a@b.co'], QID9_1_2: ['nope'], QID9_2_1: ['x'], QID9_3_2: ['y@z'] };
    const read = readTextMatrix(question, 'QID9', form, items);
    expect(read.error).toBe('Item 1, Other: Please enter a valid email address. (2 more boxes marked below)');
    expect(read.fields).toMatchObject({ QID9_1_1: ['a@b.co'], QID9_1_2: ['nope'] });
    expect(readTextMatrix(question, 'QID9', { QID9_1_1: ['a@b.co'] }, items)).toEqual({
      fields: { QID9_1_1: ['a@b.co'] },
    });
  });
  it('checks numbers and their bounds, and lengths', () => {
    const numeric: Question = { ...base, kind: 'matrix-text', validation: { numeric: { min: 0, max: 9 } } };
    expect(cellProblem(numeric, '4')).toBeUndefined();
    expect(cellProblem(numeric, '12')).toBe('Please enter a number between 0 and 9.');
    expect(cellProblem(numeric, 'four')).toBe('Please enter a number between 0 and 9.');
    const short: Question = {
      ...base,
      kind: 'matrix-text',
      validation: { text: { kind: 'length', max: 3 } },
    };
    expect(cellProblem(short, 'abcd')).toBe('Please enter no more than 3 characters.');
    expect(cellProblem(base, 'anything')).toBeUndefined();
  });
});

describe('profile, constant sum and rank order matrices', () => {
  const columns = [choice('1', 'Now'), choice('2', 'Later')];
  it('a profile row takes one point of its own scale', () => {
    const question: Question = {
      ...base,
      kind: 'matrix-profile',
      rowAnswers: { 1: [choice('1'), choice('2')], 2: [choice('1'), choice('2'), choice('3')] },
    };
    const rows = items.slice(0, 2);
    expect(readProfile(question, { QID9_1: ['2'], QID9_2: ['3'] }, rows)).toEqual({
      fields: { QID9_1: ['2'], QID9_2: ['3'] },
    });
    expect(readProfile(question, { QID9_1: ['3'] }, rows).error).toBe('That answer is not offered here.');
    expect(readProfile(question, { QID9_2: ['1', '2'] }, rows).error).toBe('Choose one answer for “Item 2”.');
  });
  it('a constant sum matrix totals each column on its own; the numbers given stay', () => {
    const question: Question = { ...base, kind: 'matrix-cs', answers: columns, constantSum: { total: 10 } };
    const rows = items.slice(0, 2);
    expect(readSumMatrix(question, { QID9_1_1: ['4'], QID9_2_1: ['6'], QID9_1_2: ['10'] }, rows)).toEqual({
      fields: { QID9_1_1: ['4'], QID9_2_1: ['6'], QID9_1_2: ['10'] },
    });
    const off = readSumMatrix(question, { QID9_1_1: ['4'], QID9_1_2: ['3'], QID9_2_2: ['3'] }, rows);
    expect(off.error).toBe('The numbers in “Now” must add up to 10 (they add up to 4).');
    expect(off.fields).toEqual({ QID9_1_1: ['4'], QID9_1_2: ['3'], QID9_2_2: ['3'] });
    expect(readSumMatrix(question, { QID9_1_1: ['-1'] }, rows).error).toBe(
      'Enter a number of 0 or more in each box.',
    );
  });
  it('a rank order matrix ranks the rows 1..n once each within a column', () => {
    const question: Question = { ...base, kind: 'matrix-rank', answers: columns };
    const ranked = { QID9_1_1: ['3'], QID9_2_1: ['1'], QID9_3_1: ['2'] };
    expect(readRankMatrix(question, ranked, items)).toEqual({ fields: ranked });
    const twice = readRankMatrix(question, { ...ranked, QID9_1_2: ['1'], QID9_2_2: ['1'] }, items);
    expect(twice.error).toBe('Give each row in “Later” a different rank from 1 to 3.');
    expect(twice.fields).toMatchObject({ QID9_1_2: ['1'], QID9_2_2: ['1'] });
  });
});
