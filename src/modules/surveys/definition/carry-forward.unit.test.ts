import { describe, expect, it } from 'vitest';
import { carriedFields, carryForwardOf, withCarriedChoices } from './carry-forward.js';
import type { QsfQuestion } from './qsf.js';
import { valueKeysOf } from './value-keys.js';

const choices = (...texts: string[]) =>
  Object.fromEntries(
    texts.map((text, i) => [String(i + 1), { Display: text, TextEntry: false, ExclusiveAnswer: false }]),
  );
const q = (id: string, extra: Partial<QsfQuestion>): QsfQuestion =>
  ({
    QuestionID: id,
    DataExportTag: id,
    QuestionType: 'MC',
    Selector: 'MAVR',
    SubSelector: 'TX',
    QuestionText: id,
    QuestionDescription: id,
    Choices: {},
    ChoiceOrder: [],
    Answers: {},
    AnswerOrder: [],
    RecodeValues: {},
    Validation: { Settings: {} },
    DisplayLogic: null,
    Configuration: {},
    ...extra,
  }) as QsfQuestion;

const source = q('QID1', {
  Choices: choices('Red', 'Blue'),
  ChoiceOrder: ['1', '2'],
  RecodeValues: { 2: '7' },
});
const locator = (what: string) => ({ DynamicChoices: { Locator: `q://QID1/ChoiceGroup/${what}` } });

describe('carry-forward', () => {
  it('reads every kind of locator, and nothing else', () => {
    for (const mode of ['SelectedChoices', 'NotSelectedChoices', 'DisplayedChoices', 'AllChoices'])
      expect(carryForwardOf(q('QID2', locator(mode)))).toEqual({ from: 'QID1', mode });
    expect(carryForwardOf(q('QID2', { DynamicChoices: { Locator: 'refl://REFL_1/x' } }))).toBeUndefined();
  });

  it('adds the source choices as x<id> before its own, with their recodes', () => {
    const dest = withCarriedChoices(
      q('QID2', { ...locator('SelectedChoices'), Choices: choices('Own'), ChoiceOrder: ['1'] }),
      new Map([['QID1', source]]),
    );
    expect(dest.ChoiceOrder).toEqual(['x1', 'x2', '1']);
    expect(dest.RecodeValues).toMatchObject({ x1: '1', x2: '7' });
    expect(valueKeysOf(dest).map((k) => k.key)).toEqual(['QID2_x1', 'QID2_x2', 'QID2_1']);
  });

  it('renames the engine fields of carried choices, leaving the question’s own', () => {
    const dest = withCarriedChoices(q('QID2', locator('AllChoices')), new Map([['QID1', source]]));
    expect(carriedFields(dest, { QID2: ['1', '9'], QID2_2: ['3'], QID2_2_TEXT: ['t'] })).toEqual({
      QID2: ['x1', '9'],
      QID2_x2: ['3'],
      QID2_x2_TEXT: ['t'],
    });
  });

  it('carries into a matrix’s columns (DynamicAnswers): x<id> scale points, their recodes the source’s', () => {
    const matrix = q('QID3', {
      QuestionType: 'Matrix',
      Selector: 'Likert',
      SubSelector: 'SingleAnswer',
      Choices: choices('Morning', 'Evening'),
      ChoiceOrder: ['1', '2'],
      DynamicAnswers: { Locator: 'q://QID1/ChoiceGroup/DisplayedChoices' },
    });
    expect(carryForwardOf(matrix, 'DynamicAnswers')).toEqual({ from: 'QID1', mode: 'DisplayedChoices' });
    expect(carryForwardOf(matrix)).toBeUndefined();
    const dest = withCarriedChoices(matrix, new Map([['QID1', source]]));
    expect(dest.AnswerOrder).toEqual(['x1', 'x2']);
    expect(dest.ChoiceOrder).toEqual(['1', '2']);
    expect(dest.RecodeValues).toMatchObject({ x1: '1', x2: '7' });
    expect(valueKeysOf(dest).map((k) => k.key)).toEqual(['QID3_1', 'QID3_2']);
    // A row's point, and a text or number matrix's cells, take the carried ids; a row's text does not.
    expect(carriedFields(dest, { QID3_1: ['2'], QID3_2_1: ['t'], QID3_2_TEXT: ['u'] })).toEqual({
      QID3_1: ['x2'],
      QID3_2_x1: ['t'],
      QID3_2_TEXT: ['u'],
    });
  });
});
