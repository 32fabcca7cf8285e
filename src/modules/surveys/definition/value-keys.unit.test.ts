import { describe, expect, it } from 'vitest';
import { importQsf } from '../qsf-import.js';
import { type QsfQuestion, questionsOf } from './qsf.js';
import { valueKeysOf } from './value-keys.js';

const sq = (payload: Record<string, unknown>) => ({
  Element: 'SQ',
  PrimaryAttribute: payload.QuestionID,
  Payload: payload,
});
/** One question as the importer regularises it. */
const question = (payload: Record<string, unknown>): QsfQuestion => {
  const [q] = questionsOf(
    importQsf({ SurveyElements: [sq({ QuestionID: 'QID1', ...payload })] }, 'SV_aaaaaaaaaaaaaaa').document,
  );
  if (!q) throw new Error('no question');
  return q;
};

describe('valueKeysOf', () => {
  it.each([
    [
      { QuestionType: 'MC', Selector: 'SAVR', Choices: { 1: {}, 2: { TextEntry: true } } },
      ['QID1', 'QID1_2_TEXT'],
    ],
    [{ QuestionType: 'MC', Selector: 'MAVR', Choices: { 1: {}, 2: {} } }, ['QID1_1', 'QID1_2']],
    [{ QuestionType: 'MC', Selector: 'NPS', Choices: [{}, {}] }, ['QID1_NPS_GROUP', 'QID1']],
    [{ QuestionType: 'TE', Selector: 'ML' }, ['QID1_TEXT']],
    [{ QuestionType: 'TE', Selector: 'FORM', Choices: { 1: {}, 2: {} } }, ['QID1_1', 'QID1_2']],
    [
      {
        QuestionType: 'Matrix',
        Selector: 'Likert',
        SubSelector: 'SingleAnswer',
        Choices: { 1: {}, 2: {} },
        Answers: { 1: {} },
      },
      ['QID1_1', 'QID1_2'],
    ],
    [
      {
        QuestionType: 'Matrix',
        Selector: 'Likert',
        SubSelector: 'MultipleAnswer',
        Choices: { 1: {} },
        Answers: { 1: {}, 2: {} },
      },
      ['QID1_1_1', 'QID1_1_2'],
    ],
    [{ QuestionType: 'Slider', Selector: 'HSLIDER', Choices: { 1: {} } }, ['QID1_1']],
    [{ QuestionType: 'RO', Selector: 'DND', Choices: { 1: {}, 2: {} } }, ['QID1_1', 'QID1_2']],
    [
      { QuestionType: 'Timing', Selector: 'PageTimer' },
      ['QID1_FIRST_CLICK', 'QID1_LAST_CLICK', 'QID1_PAGE_SUBMIT', 'QID1_CLICK_COUNT'],
    ],
    [{ QuestionType: 'DB', Selector: 'TB' }, []],
    [
      {
        QuestionType: 'SBS',
        Selector: 'SBSMatrix',
        Choices: { 1: {} },
        AdditionalQuestions: {
          1: { QuestionType: 'Matrix', SubSelector: 'SingleAnswer', Answers: { 1: {} } },
          2: { QuestionType: 'Matrix', SubSelector: 'MultipleAnswer', Answers: { 1: {}, 2: {} } },
        },
      },
      ['QID1#1_1', 'QID1#2_1_1', 'QID1#2_1_2'],
    ],
  ])('%o → %o', (payload, keys) => {
    expect(valueKeysOf(question(payload)).map((k) => k.key)).toEqual(keys);
  });
});
