/**
 * The one logic evaluator, read through both fact sources: a live session (the engine's form fields,
 * engine/session-facts.ts) and a recorded response (value keys, recorded-facts.ts). One respondent is
 * written both ways; every locator and operator must give the same answer from either.
 */
import { describe, expect, it } from 'vitest';
import { block, blockFlow, qsf, question } from '../../../../test/engine/qsf-builder.js';
import { type Answers, factsFor } from '../../engine/flow.js';
import { responseAnswers } from '../../engine/response.js';
import { toEngineSurvey } from '../../engine/survey-model.js';
import { importQsf } from '../qsf-import.js';
import { evaluateLogic, type Logic, type LogicFacts, parseLocator } from './logic.js';
import { questionsOf } from './qsf.js';
import { recordedFacts } from './recorded-facts.js';

const SURVEY = 'SV_logicunit00000';
const matrix = (sub: string, extra = {}) => ({
  QuestionType: 'Matrix',
  Selector: 'Likert',
  SubSelector: sub,
  Answers: { 1: { Display: 'Low' }, 2: { Display: 'Mid' }, 3: { Display: 'High' } },
  AnswerOrder: [1, 2, 3],
  ...extra,
});
const doc = importQsf(
  qsf({
    blocks: [block('BL_a', ['QID1', 'QID2', 'QID3', 'QID4', 'QID5', 'QID6', 'QID7', 'QID8', 'QID9'])],
    flow: [blockFlow('BL_a', 'FL_2')],
    questions: [
      question('QID1', {
        type: 'MC',
        selector: 'SAVR',
        choices: ['Red', 'Blue', { Display: 'Other', TextEntry: 'true' }],
        extra: { RecodeValues: { 1: '10', 2: '20', 3: '30' } },
      }),
      question('QID2', {
        type: 'MC',
        selector: 'MAVR',
        choices: ['A', 'B', 'C'],
        extra: { RecodeValues: { 1: '4', 2: '5', 3: '6' } },
      }),
      question('QID3', {
        type: 'Matrix',
        selector: 'Likert',
        sub: 'SingleAnswer',
        choices: ['Taste', 'Price'],
        answers: ['Low', 'Mid', 'High'],
        extra: { RecodeValues: { 1: '1', 2: '2', 3: '5' } },
      }),
      question('QID4', {
        type: 'SBS',
        selector: 'SBSMatrix',
        choices: ['Apples', 'Pears'],
        extra: {
          AdditionalQuestions: {
            1: matrix('SingleAnswer', { RecodeValues: { 3: 'Yes' } }),
            2: matrix('MultipleAnswer'),
          },
        },
      }),
      question('QID5', { type: 'TE', selector: 'SL' }),
      question('QID6', { type: 'TE', selector: 'FORM', choices: ['Age', 'Town'] }),
      question('QID7', { type: 'Slider', selector: 'HSLIDER', choices: ['Warmth'] }),
      question('QID8', {
        type: 'Matrix',
        selector: 'Likert',
        sub: 'MultipleAnswer',
        choices: ['Row'],
        answers: ['X', 'Y'],
      }),
      question('QID9', { type: 'TE', selector: 'SL' }),
    ],
  }),
  SURVEY,
).document;
const questions = new Map(questionsOf(doc).map((q) => [q.QuestionID, q]));
const engineSurvey = toEngineSurvey(SURVEY, doc);

/** The respondent as the engine holds it: raw form fields, choice and answer ids. QID9 shown, left empty. */
const ANSWERS: Answers = {
  QID1: { QID1: ['3'], QID1_3_TEXT: ['Other text'] },
  QID2: { QID2: ['1', '3'] },
  QID3: { QID3_1: ['3'] },
  QID4: { 'QID4#1_2': ['3'], 'QID4#2_1': ['1', '2'] },
  QID5: { QID5_TEXT: ['Hello World'] },
  QID6: { QID6_1: ['42'] },
  QID7: { QID7_1: ['75'] },
  QID8: { QID8_1: ['2'] },
  QID9: {},
};
const SHOWN = ['QID1', 'QID2', 'QID3', 'QID4', 'QID5', 'QID6', 'QID7', 'QID8', 'QID9'];
const EMBEDDED = { tier: 'Gold', code: '12abc' };

/** The same respondent as a recorded response holds it: value keys, recodes, then embedded data. */
const RECORDED_ANSWERS = {
  QID1: 30,
  QID1_3_TEXT: 'Other text',
  QID2_1: 1,
  QID2_3: 1,
  QID3_1: 5,
  'QID4#1_2': 'Yes',
  'QID4#2_1_1': 1,
  'QID4#2_1_2': 1,
  QID5_TEXT: 'Hello World',
  QID6_1: '42',
  QID7_1: 75,
  QID8_1_2: 1,
};

const sources: Record<'session' | 'recorded', LogicFacts> = {
  session: factsFor(engineSurvey, ANSWERS, new Set(SHOWN), EMBEDDED, 1),
  recorded: recordedFacts({ ...RECORDED_ANSWERS, ...EMBEDDED }, questions),
};

const one = (expression: Logic): Logic => ({ 0: { 0: expression, Type: 'If' }, Type: 'BooleanExpression' });
const onQuestion = (locator: string, operator: string, right?: string, extra: Logic = {}) =>
  one({
    LogicType: 'Question',
    LeftOperand: locator,
    Operator: operator,
    ...(right === undefined ? {} : { RightOperand: right }),
    ...extra,
  });
const onField = (name: string, operator: string, right?: string, extra: Logic = {}) =>
  one({ LogicType: 'EmbeddedField', LeftOperand: name, Operator: operator, RightOperand: right, ...extra });

it('the two sources describe one respondent: the values are what the engine records for the session', () => {
  expect(responseAnswers(questions, SHOWN, ANSWERS).answers).toEqual(RECORDED_ANSWERS);
});

describe.each(Object.keys(sources) as (keyof typeof sources)[])('from a %s', (source) => {
  const facts = sources[source];
  const holds = (logic: Logic) => evaluateLogic(logic, facts);

  it.each([
    // Choices of MC questions; a matrix's rows (a row is selected once answered).
    ['q://QID1/SelectableChoice/3', 'Selected', true],
    ['q://QID1/SelectableChoice/1', 'Selected', false],
    ['q://QID1/SelectableChoice/1', 'NotSelected', true],
    ['q://QID2/SelectableChoice/3', 'Selected', true],
    ['q://QID2/SelectableChoice/2', 'NotSelected', true],
    ['q://QID3/SelectableChoice/1', 'Selected', true],
    ['q://QID3/SelectableChoice/2', 'Selected', false],
    ['q://QID8/SelectableChoice/1', 'Selected', true],
    // Matrix answers: in a row, or in any row; side-by-side columns.
    ['q://QID3/SelectableAnswer/1/3', 'Selected', true],
    ['q://QID3/SelectableAnswer/1/2', 'Selected', false],
    ['q://QID3/SelectableAnswer/3', 'Selected', true],
    ['q://QID3/SelectableAnswer/2', 'NotSelected', true],
    ['q://QID4%231/SelectableAnswer/2/3', 'Selected', true],
    ['q://QID4%231/SelectableAnswer/1/3', 'Selected', false],
    ['q://QID4%232/SelectableAnswer/1/2', 'Selected', true],
    ['q://QID4%232/SelectableAnswer/3', 'Selected', false],
    ['q://QID8/SelectableAnswer/1/2', 'Selected', true],
    // Displayed: shown questions, choices and answers.
    ['q://QID1/ChoiceDisplayed/3', 'Displayed', true],
    ['q://QID1/ChoiceDisplayed/3', 'NotDisplayed', false],
    ['q://QID3/AnswerDisplayed/2', 'Displayed', true],
    ['q://QID1/QuestionDisplayed', 'Displayed', true],
    // A question the survey does not have, or a locator kind Fieldwork does not read: false either way.
    ['q://QID99/SelectableChoice/1', 'NotSelected', false],
    ['q://QID1/ChoiceGroup/SelectedChoices', 'Selected', false],
    ['q://QID1/SelectableChoice/3', 'MatchesRegex', false],
  ])('%s %s → %s', (locator, operator, expected) => {
    expect(holds(onQuestion(locator, operator))).toBe(expected);
  });

  it.each([
    // Recodes of chosen choices (any one matching suffices) and of a row's chosen answer.
    ['q://QID1/SelectedChoicesRecode', 'EqualTo', '30', true],
    ['q://QID1/SelectedChoicesRecode', 'NotEqualTo', '30', false],
    ['q://QID1/SelectedChoicesRecode', 'GreaterThan', '25', true],
    ['q://QID2/SelectedChoicesRecode', 'EqualTo', '6', true],
    ['q://QID2/SelectedChoicesRecode', 'NotEqualTo', '5', true],
    ['q://QID2/SelectedChoicesRecode', 'LessThanOrEqual', '3', false],
    ['q://QID3/SelectedAnswerRecode/1', 'EqualTo', '5', true],
    ['q://QID3/SelectedAnswerRecode/2', 'Empty', undefined, true],
    ['q://QID4%231/SelectedAnswerRecode/2', 'EqualTo', 'Yes', true],
    // Typed text: beside a choice, into the question, a form field; numbers entered.
    ['q://QID1/ChoiceTextEntryValue/3', 'Contains', 'other', false],
    ['q://QID1/ChoiceTextEntryValue/3', 'DoesNotContain', 'xyz', true],
    ['q://QID5/ChoiceTextEntryValue', 'EqualTo', 'Hello World', true],
    ['q://QID5/ChoiceTextEntryValue', 'NotEmpty', undefined, true],
    ['q://QID9/ChoiceTextEntryValue', 'Empty', undefined, true],
    ['q://QID6/ChoiceTextEntryValue/1', 'EqualTo', '42.0', true],
    ['q://QID6/ChoiceTextEntryValue/2', 'Empty', undefined, true],
    ['q://QID6/ChoiceNumericEntryValue/1', 'LessThanOrEqual', '42', true],
    ['q://QID7/ChoiceNumericEntryValue/1', 'GreaterThanOrEqual', '75', true],
    ['q://QID7/ChoiceNumericEntryValue/1', 'LessThan', '75', false],
  ])('%s %s %s → %s', (locator, operator, right, expected) => {
    expect(holds(onQuestion(locator, operator, right))).toBe(expected);
  });

  it('folds case when the expression says IgnoreCase', () => {
    const contains = onQuestion('q://QID1/ChoiceTextEntryValue/3', 'Contains', 'other', { IgnoreCase: 1 });
    expect(holds(contains)).toBe(true);
    expect(holds(onField('tier', 'EqualTo', 'gold', { IgnoreCase: 1 }))).toBe(true);
    expect(holds(onField('tier', 'EqualTo', 'gold'))).toBe(false);
  });

  it('reads embedded data by name or as e://Field/name; only whole numbers are numbers', () => {
    expect(holds(onField('e://Field/tier', 'EqualTo', 'Gold'))).toBe(true);
    expect(holds(onField('missing', 'Empty'))).toBe(true);
    expect(holds(onField('code', 'EqualTo', '12'))).toBe(false);
    expect(holds(onField('code', 'GreaterThan', '11'))).toBe(false);
    expect(holds(onField('code', 'Contains', '12'))).toBe(true);
  });

  it('joins a set without a Type by And, like an expression without a conjunction', () => {
    const yes = onQuestion('q://QID1/SelectableChoice/3', 'Selected')[0][0];
    const no = onQuestion('q://QID1/SelectableChoice/1', 'Selected')[0][0];
    expect(holds({ 0: { 0: yes, Type: 'If' }, 1: { 0: no } })).toBe(false);
    expect(holds({ 0: { 0: yes, Type: 'If' }, 1: { 0: no, Type: 'Or' } })).toBe(true);
    expect(holds({ 0: { 0: no, 1: { ...yes, Conjunction: 'Or' }, Type: 'If' } })).toBe(true);
  });
});

it('a question shown and left unanswered is displayed to a session; a recorded response cannot tell', () => {
  const displayed = onQuestion('q://QID9/QuestionDisplayed', 'Displayed');
  const notDisplayed = onQuestion('q://QID9/QuestionDisplayed', 'NotDisplayed');
  expect([evaluateLogic(displayed, sources.session), evaluateLogic(notDisplayed, sources.session)]).toEqual([
    true,
    false,
  ]);
  expect([evaluateLogic(displayed, sources.recorded), evaluateLogic(notDisplayed, sources.recorded)]).toEqual(
    [false, false],
  );
});

it('parses locators, side-by-side columns (%23) included', () => {
  expect(parseLocator('q://QID4%231/SelectedAnswerRecode/2')).toEqual({
    questionId: 'QID4#1',
    kind: 'SelectedAnswerRecode',
    args: ['2'],
  });
  expect(parseLocator('q://QID1%/SelectableChoice/1')).toBeUndefined();
  expect(parseLocator('e://Field/tier')).toBeUndefined();
});

describe('quota conditions over recorded values', () => {
  const single = questionsOf(
    importQsf(
      {
        SurveyElements: [
          {
            Element: 'SQ',
            PrimaryAttribute: 'QID1',
            Payload: {
              QuestionID: 'QID1',
              QuestionType: 'MC',
              Selector: 'SAVR',
              Choices: { 1: {}, 2: {} },
              RecodeValues: { 1: '7' },
            },
          },
        ],
      },
      'SV_aaaaaaaaaaaaaaa',
    ).document,
  )[0];
  const quotaQuestions = new Map(single ? [['QID1', single]] : []);
  const selected = (choice: string, operator = 'Selected', conjunction?: string) => ({
    LogicType: 'Question',
    LeftOperand: `q://QID1/SelectableChoice/${choice}`,
    Operator: operator,
    ...(conjunction ? { Conjuction: conjunction } : {}),
  });
  it('reads selected choices by recode, joins expressions and groups, and compares embedded fields', () => {
    const facts = recordedFacts({ QID1: 7, tier: 'gold' }, quotaQuestions);
    expect(evaluateLogic({ 0: { 0: selected('1'), Type: 'If' } }, facts)).toBe(true);
    expect(
      evaluateLogic({ 0: { 0: selected('2'), 1: selected('1', 'Selected', 'Or'), Type: 'If' } }, facts),
    ).toBe(true);
    expect(
      evaluateLogic({ 0: { 0: selected('2'), Type: 'If' }, 1: { 0: selected('1'), Type: 'And' } }, facts),
    ).toBe(false);
    expect(evaluateLogic({ 0: { 0: selected('2', 'NotSelected'), Type: 'If' } }, facts)).toBe(true);
    const field = {
      LogicType: 'EmbeddedField',
      LeftOperand: 'tier',
      Operator: 'EqualTo',
      RightOperand: 'gold',
    };
    expect(evaluateLogic({ 0: { 0: field, Type: 'If' } }, facts)).toBe(true);
    expect(evaluateLogic({ 0: { 0: { LogicType: 'Mystery' }, Type: 'If' } }, facts)).toBe(false);
    expect(evaluateLogic(null, facts)).toBe(true);
  });
});
