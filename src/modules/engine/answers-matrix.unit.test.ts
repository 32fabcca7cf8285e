import { describe, expect, it } from 'vitest';
import { readConstantSum, readPickGroupRank, readTextMatrix } from './answers-matrix.js';
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
