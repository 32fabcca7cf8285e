import { describe, expect, it } from 'vitest';
import { blocksOf, flowOf, type QsfQuestion, questionsOf } from './definition/qsf.js';
import { importQsf } from './qsf-import.js';

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
