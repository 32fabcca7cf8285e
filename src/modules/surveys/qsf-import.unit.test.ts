import { describe, expect, it } from 'vitest';
import { evaluateLogic } from './logic.js';
import { blocksOf, flowOf, type QsfQuestion, questionsOf } from './qsf.js';
import { importQsf } from './qsf-import.js';
import { valueKeysOf } from './value-keys.js';

const ID = 'SV_aaaaaaaaaaaaaaa';
const sq = (payload: Record<string, unknown>) => ({
  Element: 'SQ',
  PrimaryAttribute: payload.QuestionID,
  Payload: payload,
});
const question = (payload: Record<string, unknown>): QsfQuestion => {
  const [q] = questionsOf(
    importQsf({ SurveyElements: [sq({ QuestionID: 'QID1', ...payload })] }, ID).document,
  );
  if (!q) throw new Error('no question');
  return q;
};

describe('importQsf', () => {
  it('regularises what real files vary in', () => {
    const q = question({
      QuestionType: 'MC',
      Selector: 'SAVR',
      Choices: [{ Display: 'a' }, { Display: 'b', TextEntry: 'true' }],
      ChoiceOrder: [1, '0', 7],
      RecodeValues: { 0: 5 },
    });
    expect(q.SubSelector).toBeNull();
    expect(q.ChoiceOrder).toEqual(['1', '0']);
    expect(q.Choices['1']).toMatchObject({ Display: 'b', TextEntry: true, ExclusiveAnswer: false });
    expect(q.RecodeValues).toEqual({ '0': '5' });
    expect(q.DataExportTag).toBe('QID1');
  });

  it('takes the API wrapper, blocks written as an object, and makes blocks and a flow when there are none', () => {
    const bare = importQsf(
      { result: { SurveyElements: [sq({ QuestionID: 'QID1', QuestionType: 'TE', Selector: 'SL' })] } },
      ID,
    );
    expect(blocksOf(bare.document)[0]?.BlockElements).toEqual([{ Type: 'Question', QuestionID: 'QID1' }]);
    expect(flowOf(bare.document)).toHaveLength(1);
    const objectBlocks = importQsf(
      { SurveyElements: [{ Element: 'BL', Payload: { 0: { ID: 'BL_x', BlockElements: [] } } }] },
      ID,
    );
    expect(blocksOf(objectBlocks.document).map((b) => b.ID)).toEqual(['BL_x']);
  });

  it('keeps unknown element kinds and rewrites the survey id', () => {
    const { document } = importQsf(
      { SurveyEntry: { SurveyID: 'SV_other' }, SurveyElements: [{ Element: 'NEW', Payload: [1] }] },
      ID,
    );
    expect(document.SurveyEntry.SurveyID).toBe(ID);
    expect(document.SurveyElements[0]).toMatchObject({ Element: 'NEW', Payload: [1], SurveyID: ID });
  });

  it('refuses what cannot be a survey, naming the field', () => {
    expect(() => importQsf([], ID)).toThrow('file must be a QSF document');
    expect(() => importQsf({ SurveyElements: [{ Payload: {} }] }, ID)).toThrow(
      'file.SurveyElements[0].Element',
    );
    expect(() =>
      importQsf({ SurveyElements: [sq({ QuestionID: 'QID1' }), sq({ QuestionID: 'QID1' })] }, ID),
    ).toThrow('has question QID1 twice');
    const quota = { Element: 'QO', Payload: { ID: 'QO_1', Occurrences: 1 } };
    expect(() => importQsf({ SurveyElements: [quota, quota] }, ID)).toThrow('has quota QO_1 twice');
  });
});

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

describe('evaluateLogic', () => {
  const single = question({
    QuestionType: 'MC',
    Selector: 'SAVR',
    Choices: { 1: {}, 2: {} },
    RecodeValues: { 1: '7' },
  });
  const questions = new Map([['QID1', single]]);
  const selected = (choice: string, operator = 'Selected', conjunction?: string) => ({
    LogicType: 'Question',
    LeftOperand: `q://QID1/SelectableChoice/${choice}`,
    Operator: operator,
    ...(conjunction ? { Conjuction: conjunction } : {}),
  });
  it('reads selected choices by recode, joins expressions and groups, and compares embedded fields', () => {
    const values = { QID1: 7, tier: 'gold' };
    expect(evaluateLogic({ 0: { 0: selected('1'), Type: 'If' } }, { values, questions })).toBe(true);
    expect(
      evaluateLogic(
        { 0: { 0: selected('2'), 1: selected('1', 'Selected', 'Or'), Type: 'If' } },
        { values, questions },
      ),
    ).toBe(true);
    expect(
      evaluateLogic(
        { 0: { 0: selected('2'), Type: 'If' }, 1: { 0: selected('1'), Type: 'And' } },
        { values, questions },
      ),
    ).toBe(false);
    expect(evaluateLogic({ 0: { 0: selected('2', 'NotSelected'), Type: 'If' } }, { values, questions })).toBe(
      true,
    );
    const field = {
      LogicType: 'EmbeddedField',
      LeftOperand: 'tier',
      Operator: 'EqualTo',
      RightOperand: 'gold',
    };
    expect(evaluateLogic({ 0: { 0: field, Type: 'If' } }, { values, questions })).toBe(true);
    expect(evaluateLogic({ 0: { 0: { LogicType: 'Mystery' }, Type: 'If' } }, { values, questions })).toBe(
      false,
    );
    expect(evaluateLogic(null, { values, questions })).toBe(true);
  });
});
