/**
 * Layout rules the two real definition/export pairs (test/conformance/export-layout.test.ts) do not
 * reach, each checked against what another real export shows (../shared/fixtures/exports/README.md).
 */
import { PassThrough } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { importQsf } from '../../surveys/qsf-import.js';
import { writeCsv } from '../formats/delimited-writer.js';
import type { ExportColumn } from '../formats/export-layout.js';
import { exportLayout, joinSets } from './export-columns.js';

const sq = (payload: Record<string, unknown>) => ({ Element: 'SQ', Payload: payload });
const FOODS = {
  QuestionID: 'QID1',
  DataExportTag: 'Q1',
  QuestionType: 'MC',
  Selector: 'MAVR',
  QuestionText: 'Which foods?',
  Choices: { 1: { Display: 'Ramen' }, 7: { Display: 'Curry' }, 8: { Display: 'Other', TextEntry: true } },
  ChoiceOrder: [1, 7, 8],
  Randomization: { Type: 'All' },
  VariableNaming: { 1: 'ramen' },
};
const NPS = {
  QuestionID: 'QID18',
  DataExportTag: 'Q3.13',
  QuestionType: 'MC',
  Selector: 'NPS',
  QuestionText: 'How likely?',
  Choices: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => ({ Display: String(n) })),
};
const GRID = {
  QuestionID: 'QID5',
  DataExportTag: 'Q5',
  QuestionType: 'Matrix',
  Selector: 'Likert',
  SubSelector: 'MultipleAnswer',
  QuestionText: 'When?',
  Choices: { 1: { Display: 'ate' } },
  Answers: { 1: { Display: '1st Year' }, 2: { Display: '2nd Year' } },
  AnswerRandomization: { Type: 'None' },
};
const TRASHED = { QuestionID: 'QID9', QuestionType: 'TE', Selector: 'SL', QuestionText: 'Gone' };

function survey(options: Record<string, unknown> = {}) {
  const blocks = [
    { ID: 'BL_1', Type: 'Default', BlockElements: ['QID18', 'QID1', 'QID5'].map(question) },
    { ID: 'BL_2', Type: 'Trash', BlockElements: [question('QID9')] },
  ];
  return importQsf(
    {
      SurveyEntry: { SurveyName: 'Menu' },
      SurveyElements: [
        { Element: 'BL', Payload: blocks },
        { Element: 'SO', Payload: options },
        ...[FOODS, NPS, GRID, TRASHED].map(sq),
      ],
    },
    'SV_aaaaaaaaaaaaaaa',
  ).document;
}
function question(id: string) {
  return { Type: 'Question', QuestionID: id };
}
const questionsOnly = (columns: readonly ExportColumn[]) => columns.filter((c) => c.kind === 'question');
const header = (columns: readonly ExportColumn[]) =>
  questionsOnly(columns).map((c) => [c.name, c.text, JSON.stringify(c.importId)].join(' | '));

describe('exportLayout', () => {
  it('drops IP address, recipient, reference and location columns of an anonymized survey (salami)', () => {
    const names = exportLayout(survey({ AnonymizeResponse: 'Yes' }), 'csv')
      .columns.filter((c) => c.kind === 'metadata')
      .map((c) => c.name);
    expect(names).toEqual([
      'StartDate',
      'EndDate',
      'Status',
      'Progress',
      'Duration (in seconds)',
      'Finished',
      'RecordedDate',
      'ResponseId',
      'DistributionChannel',
      'UserLanguage',
    ]);
    expect(exportLayout(survey({ AnonymizeResponse: 'No' }), 'csv').columns[3]?.name).toBe('IPAddress');
  });

  it('names NPS, breakout multi-answer with "Selected Choice", and matrix cells as the real files do', () => {
    expect(header(exportLayout(survey(), 'csv').columns)).toEqual([
      'Q3.13_NPS_GROUP | How likely? - Group | {"ImportId":"QID18_NPS_GROUP"}',
      'Q3.13 | How likely? | {"ImportId":"QID18"}',
      'Q1_1 | Which foods? - Selected Choice - Ramen | {"ImportId":"QID1","choiceId":"1"}',
      'Q1_7 | Which foods? - Selected Choice - Curry | {"ImportId":"QID1","choiceId":"7"}',
      'Q1_8 | Which foods? - Selected Choice - Other | {"ImportId":"QID1","choiceId":"8"}',
      'Q1_8_TEXT | Which foods? - Other - Text | {"ImportId":"QID1_8_TEXT"}',
      'Q5_1_1 | When? - ate - 1st Year | {"ImportId":"QID5_1","choiceId":"1"}',
      'Q5_1_2 | When? - ate - 2nd Year | {"ImportId":"QID5_1","choiceId":"2"}',
    ]);
    const ramen = exportLayout(survey(), 'spss').columns.find((c) => c.key === 'QID1_1');
    expect(ramen?.spssLabel).toBe('Which foods? Ramen');
  });

  it('adds display-order columns only when asked, for randomized choices, labelled by variable names', () => {
    const columns = exportLayout(survey(), 'csv', { includeDisplayOrder: true }).columns;
    expect(header(columns.filter((c) => c.key.includes('_DO_')))).toEqual([
      'Q1_DO_1 | Which foods? - Display Order - ramen | {"ImportId":"QID1_DO","choiceId":"1"}',
      'Q1_DO_7 | Which foods? - Display Order - Curry | {"ImportId":"QID1_DO","choiceId":"7"}',
      'Q1_DO_8 | Which foods? - Display Order - Other | {"ImportId":"QID1_DO","choiceId":"8"}',
    ]);
    expect(columns.indexOf(columns.find((c) => c.key === 'QID1_DO_1') as ExportColumn)).toBe(
      columns.findIndex((c) => c.key === 'QID1_8_TEXT') + 1,
    );
  });

  it('joins a multi-answer question into one column with breakoutSets false (menu, labels)', async () => {
    const doc = survey();
    const layout = exportLayout(doc, 'csv', { breakoutSets: false });
    expect(header(layout.columns).slice(2, 4)).toEqual([
      'Q1 | Which foods? - Selected Choice | {"ImportId":"QID1"}',
      'Q1_8_TEXT | Which foods? - Other - Text | {"ImportId":"QID1_8_TEXT"}',
    ]);
    const join = joinSets(doc, { breakoutSets: false });
    const row = join?.({ responseId: 'R_1', values: { QID1_1: 1, QID1_7: 1 } });
    expect(row?.values.QID1).toEqual(['1', '7']);
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeCsv(layout, [row as NonNullable<typeof row>], out, { useLabels: true });
    const [names, , , record] = parse(Buffer.concat(chunks)) as string[][];
    expect(record?.[names?.indexOf('Q1') ?? -1]).toBe('Ramen,Curry');
    expect(joinSets(doc, { breakoutSets: true })).toBeUndefined();
  });

  it('leaves out questions in the trash, and joins csv2013 texts with a bare dash', () => {
    const legacy = exportLayout(survey(), 'csv2013').columns;
    expect(legacy.some((c) => c.key.startsWith('QID9'))).toBe(false);
    expect(legacy.find((c) => c.key === 'QID1_1')?.text).toBe('Which foods?-Ramen');
    expect(legacy.find((c) => c.key === 'QID5_1_2')?.text).toBe('When?-ate-2nd Year');
    expect(legacy.at(-1)?.name).toBe('LocationAccuracy');
  });
});
