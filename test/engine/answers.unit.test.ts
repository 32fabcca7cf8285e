import { describe, expect, it } from 'vitest';
import { FORCED_MESSAGE, type FormFields, readPage } from '../../src/modules/engine/answers.js';
import { factsFor, visibleChoices, walk } from '../../src/modules/engine/flow.js';
import { responseAnswers } from '../../src/modules/engine/response.js';
import { toEngineSurvey } from '../../src/modules/engine/survey-model.js';
import { questionsOf } from '../../src/modules/surveys/definition/qsf.js';
import { importQsf } from '../../src/modules/surveys/qsf-import.js';
import { block, blockFlow, qsf, question, selected } from './qsf-builder.js';

const SURVEY = 'SV_unittest000000';
const doc = importQsf(
  qsf({
    blocks: [
      block('BL_a', [
        'QID1',
        'QID2',
        'QID3',
        'QID4',
        'QID5',
        'QID6',
        'QID7',
        'QID8',
        'QID9',
        'QID10',
        'QID11',
      ]),
    ],
    flow: [blockFlow('BL_a', 'FL_2')],
    questions: [
      question('QID1', {
        type: 'MC',
        selector: 'SAVR',
        sub: 'TX',
        choices: ['Red', 'Blue', { Display: 'Other', TextEntry: 'true' }],
        force: 'ON',
        extra: { RecodeValues: { 1: '10', 2: '20', 3: '30' } },
      }),
      question('QID2', {
        type: 'MC',
        selector: 'MAVR',
        sub: 'TX',
        choices: ['A', 'B', { Display: 'None', ExclusiveAnswer: true }],
      }),
      question('QID3', {
        type: 'TE',
        selector: 'SL',
        extra: {
          Validation: {
            Settings: {
              ForceResponse: 'OFF',
              ContentType: 'ValidNumber',
              ValidNumber: { Min: '0', Max: '10' },
            },
          },
        },
      }),
      question('QID4', {
        type: 'Matrix',
        selector: 'Likert',
        sub: 'SingleAnswer',
        choices: ['Rows', 'Cols'],
        answers: ['Yes', 'No'],
      }),
      question('QID5', {
        type: 'Matrix',
        selector: 'Likert',
        sub: 'MultipleAnswer',
        choices: ['R1'],
        answers: ['X', 'Y'],
      }),
      question('QID6', {
        type: 'Slider',
        selector: 'HSLIDER',
        choices: ['Warmth'],
        extra: { Configuration: { CSSliderMin: 0, CSSliderMax: 100 } },
      }),
      question('QID7', { type: 'RO', selector: 'DND', sub: 'TX', choices: ['One', 'Two', 'Three'] }),
      question('QID8', { type: 'TE', selector: 'FORM', choices: ['First name', 'Last name'] }),
      question('QID9', {
        type: 'MC',
        selector: 'NPS',
        choices: Array.from({ length: 11 }, (_, i) => String(i)),
      }),
      question('QID10', { type: 'TE', selector: 'ML', force: 'RequestResponse' }),
      question('QID11', {
        type: 'SBS',
        selector: 'SBSMatrix',
        choices: ['Apples'],
        extra: {
          AdditionalQuestions: {
            1: {
              QuestionText: 'Taste',
              QuestionType: 'Matrix',
              Selector: 'Likert',
              SubSelector: 'SingleAnswer',
              Answers: { 1: { Display: 'Good' }, 2: { Display: 'Bad' } },
              AnswerOrder: [1, 2],
            },
            2: {
              QuestionText: 'Buy',
              QuestionType: 'Matrix',
              Selector: 'Likert',
              SubSelector: 'DL',
              Answers: { 1: { Display: 'Yes' }, 2: { Display: 'No' } },
              AnswerOrder: [1, 2],
              RecodeValues: { 1: '5', 2: '6' },
            },
          },
        },
      }),
    ],
  }),
  SURVEY,
).document;
const survey = toEngineSurvey(SURVEY, doc);
const all = [...survey.questions.values()];
const read = (form: FormFields, continueWithoutRequested = true) =>
  readPage(all, form, (q) => q.choices, { continueWithoutRequested });
const complete: FormFields = {
  QID1: ['3'],
  QID1_3_TEXT: ['Green'],
  QID2: ['1', '2'],
  QID3_TEXT: ['7'],
  QID4_1: ['1'],
  QID4_2: ['2'],
  QID5_1: ['1', '2'],
  QID6_1: ['42'],
  QID7_1: ['2'],
  QID7_2: ['3'],
  QID7_3: ['1'],
  QID8_1: ['Ada'],
  QID8_2: ['Lovelace'],
  QID9: ['9'],
  QID10_TEXT: ['Fine'],
  'QID11#1_1': ['2'],
  'QID11#2_1': ['1'],
};

describe('reading a page', () => {
  it('takes a complete page and turns it into the survey’s value keys', () => {
    const reading = read(complete);
    expect(reading.errors.size).toBe(0);
    const questions = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
    const { answers, displayedFields } = responseAnswers(questions, survey.questions.keys(), reading.answers);
    expect(answers).toEqual({
      QID1: 30,
      QID1_3_TEXT: 'Green',
      QID2_1: 1,
      QID2_2: 1,
      QID3_TEXT: '7',
      QID4_1: 1,
      QID4_2: 2,
      QID5_1_1: 1,
      QID5_1_2: 1,
      QID6_1: 42,
      QID7_1: 2,
      QID7_2: 3,
      QID7_3: 1,
      QID8_1: 'Ada',
      QID8_2: 'Lovelace',
      QID9: 9,
      QID10_TEXT: 'Fine',
      'QID11#1_1': 2,
      'QID11#2_1': 5,
    });
    expect(displayedFields).toContain('QID2_3');
    expect(displayedFields).toContain('QID9_NPS_GROUP');
  });

  it('blocks a forced question left empty and asks once about a requested one', () => {
    const { QID1: _, QID1_3_TEXT: __, QID10_TEXT: ___, ...rest } = complete;
    const reading = read(rest, false);
    expect(reading.errors.get('QID1')).toBe(FORCED_MESSAGE);
    expect(reading.requested).toEqual(['QID10']);
    expect(read(rest, true).requested).toEqual([]);
  });

  it('explains answers it cannot take', () => {
    const problems = (form: FormFields) => Object.fromEntries(read({ ...complete, ...form }).errors);
    expect(problems({ QID2: ['1', '3'] })).toEqual({ QID2: '“None” cannot be combined with other answers.' });
    expect(problems({ QID3_TEXT: ['eleven'] })).toEqual({ QID3: 'Please enter a number between 0 and 10.' });
    expect(problems({ QID6_1: ['101'] })).toEqual({ QID6: 'Choose a value between 0 and 100.' });
    expect(problems({ QID7_3: ['2'] })).toEqual({ QID7: 'Give each item a different rank from 1 to 3.' });
    expect(problems({ QID1: ['9'] })).toEqual({ QID1: 'That choice is not offered here.' });
    expect(problems({ QID1: ['1', '2'] })).toEqual({ QID1: 'Choose only one answer.' });
    expect(problems({ QID4_1: ['7'] })).toEqual({ QID4: 'That answer is not offered here.' });
  });

  it('keeps the text of a choice only when that choice is chosen', () => {
    const reading = read({ ...complete, QID1: ['1'], QID1_3_TEXT: ['ignored'] });
    expect(reading.answers.QID1).toEqual({ QID1: ['1'] });
  });
});

describe('choices shown', () => {
  const choiceSurvey = toEngineSurvey(
    SURVEY,
    importQsf(
      qsf({
        blocks: [block('BL_a', ['QID1', '|', 'QID2', '|', 'QID3'])],
        flow: [blockFlow('BL_a', 'FL_2')],
        questions: [
          question('QID1', { type: 'MC', selector: 'MAVR', sub: 'TX', choices: ['A', 'B', 'C'] }),
          question('QID2', {
            type: 'MC',
            selector: 'SAVR',
            sub: 'TX',
            choices: [
              'One',
              { Display: 'Two', DisplayLogic: selected('QID1', '2') },
              'Three',
              'Four',
              'Five',
            ],
            extra: { Randomization: { Type: 'RandomSubset', TotalRandSubset: 3 } },
          }),
          question('QID3', {
            type: 'MC',
            selector: 'SAVR',
            sub: 'TX',
            choices: [],
            extra: { DynamicChoices: { Locator: 'q://QID1/ChoiceGroup/SelectedChoices' } },
          }),
        ],
      }),
      SURVEY,
    ).document,
  );
  const shown = (answers: Record<string, Record<string, string[]>>, id: string, seed = 1) => {
    const walked = walk(choiceSurvey, { seed, answers, given: {} });
    const facts = factsFor(choiceSurvey, answers, walked.displayed, walked.embedded, seed);
    const q = choiceSurvey.questions.get(id);
    return q ? visibleChoices(choiceSurvey, q, facts, seed).map((c) => c.text) : [];
  };

  it('hides a choice whose display logic fails and shows a random subset in the file’s order', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const picked = shown({ QID1: { QID1: ['1'] } }, 'QID2', seed);
      expect(picked).toHaveLength(3);
      expect(picked).not.toContain('Two');
      const order = ['One', 'Three', 'Four', 'Five'];
      expect([...picked].sort((a, b) => order.indexOf(a) - order.indexOf(b))).toEqual(picked);
    }
  });

  it('carries forward the choices selected in another question, and skips the question without any', () => {
    expect(shown({ QID1: { QID1: ['1', '3'] } }, 'QID3')).toEqual(['A', 'C']);
    const walked = walk(choiceSurvey, { seed: 1, answers: {}, given: {} });
    expect(walked.displayed.has('QID3')).toBe(false);
  });
});
