/**
 * A small export used by the format tests: metadata, single and multi choice, text, matrix, embedded
 * data, a unicode string, a 300-byte string, a newline in text and empty values.
 */
import { Writable } from 'node:stream';
import type { ExportColumn, ExportLayout, ExportRow } from './export-layout.js';
import { currentMetadataColumns } from './metadata-columns.js';

const question = (column: Omit<ExportColumn, 'kind'>): ExportColumn => ({ ...column, kind: 'question' });

export const LIKERT = [
  { value: 11, label: 'Strongly agree' },
  { value: 12, label: 'Somewhat agree' },
  { value: 13, label: 'Neither agree nor disagree' },
];

export const LONG_TEXT = `${'Lorem ipsum dolor sit amet, '.repeat(11)}end.`.slice(0, 300); // 300 bytes
export const UNICODE_TEXT = 'Grüße, 世界 — “quoted” 🚀';
export const MULTILINE_TEXT = 'first line\nsecond, line\r\nthird "line"';

export function sampleLayout(): ExportLayout {
  const columns: ExportColumn[] = [
    ...currentMetadataColumns().filter((c) =>
      [
        'startDate',
        'endDate',
        'status',
        'progress',
        'duration',
        'finished',
        'recordedDate',
        '_recordId',
        'userLanguage',
      ].includes(c.key),
    ),
    question({
      key: 'QID1',
      name: 'Q1',
      text: 'How do you feel?',
      importId: { ImportId: 'QID1' },
      type: 'numeric',
      valueLabels: LIKERT,
    }),
    question({
      key: 'QID2_1',
      name: 'Q2_1',
      text: 'Which foods? - Selected Choice - Ramen',
      spssLabel: 'Which foods? Ramen',
      importId: { ImportId: 'QID2', choiceId: '1' },
      type: 'numeric',
      valueLabels: [{ value: 1, label: 'Ramen' }],
    }),
    question({
      key: 'QID2_2',
      name: 'Q2_2',
      text: 'Which foods? - Selected Choice - Curry',
      spssLabel: 'Which foods? Curry',
      importId: { ImportId: 'QID2', choiceId: '2' },
      type: 'numeric',
      valueLabels: [{ value: 1, label: 'Curry' }],
    }),
    question({
      key: 'QID3_TEXT',
      name: 'Q3',
      text: 'Tell us more',
      importId: { ImportId: 'QID3_TEXT' },
      type: 'string',
      maxBytes: 300,
    }),
    question({
      key: 'QID4_1',
      name: 'Q4_1',
      text: 'Rate - Taste',
      importId: { ImportId: 'QID4_1' },
      type: 'numeric',
      valueLabels: LIKERT,
    }),
    question({
      key: 'QID4_2',
      name: 'Q4_2',
      text: 'Rate - Price',
      importId: { ImportId: 'QID4_2' },
      type: 'numeric',
      valueLabels: LIKERT,
    }),
    question({
      key: 'QID5_TEXT',
      name: 'Q5 comment',
      text: 'Comment, please',
      importId: { ImportId: 'QID5_TEXT' },
      type: 'string',
      maxBytes: 60,
    }),
    {
      key: 'segment',
      name: 'segment',
      text: 'segment',
      importId: { ImportId: 'segment' },
      kind: 'embedded',
      type: 'string',
      maxBytes: 40,
    },
    {
      key: 'score',
      name: 'score',
      text: 'score',
      importId: { ImportId: 'score' },
      kind: 'embedded',
      type: 'numeric',
    },
  ];
  return { columns };
}

export function sampleRows(): ExportRow[] {
  return [
    {
      responseId: 'R_aaaaaaaaaaaaaaa',
      values: {
        startDate: '2021-01-11T18:06:19Z',
        endDate: new Date('2021-01-11T18:06:40Z'),
        status: 0,
        progress: 100,
        duration: 20,
        finished: 1,
        recordedDate: Date.parse('2021-01-11T18:06:40Z'),
        _recordId: 'R_aaaaaaaaaaaaaaa',
        userLanguage: 'EN',
        QID1: 11,
        QID2_1: 1,
        QID3_TEXT: LONG_TEXT,
        QID4_1: 12,
        QID4_2: 13,
        QID5_TEXT: UNICODE_TEXT,
        segment: 'gold',
        score: 4.87,
      },
      labels: {
        QID1: 'Strongly agree',
        QID2_1: 'Ramen',
        QID4_1: 'Somewhat agree',
        QID4_2: 'Neither agree nor disagree',
      },
      displayedFields: ['QID1', 'QID2_1', 'QID2_2', 'QID3_TEXT', 'QID4_1', 'QID4_2', 'QID5_TEXT'],
      displayedValues: { QID1: [11, 12, 13] },
    },
    {
      responseId: 'R_bbbbbbbbbbbbbbb',
      values: {
        startDate: '2021-07-01T23:30:00.000Z',
        endDate: '2021-07-01T23:45:10.000Z',
        status: 2,
        progress: 50,
        duration: 910,
        finished: 0,
        recordedDate: '2021-07-01T23:45:10.000Z',
        _recordId: 'R_bbbbbbbbbbbbbbb',
        userLanguage: '',
        QID2_2: 1,
        QID3_TEXT: MULTILINE_TEXT,
        QID4_1: 11,
        segment: null,
        score: -0.5,
      },
      labels: { QID2_2: 'Curry', QID4_1: 'Strongly agree' },
      displayedFields: ['QID1', 'QID2_1', 'QID2_2', 'QID3_TEXT', 'QID4_1', 'QID4_2'],
    },
  ];
}

/** A Writable that keeps what it receives (tests only: small outputs). */
export function collect(): { stream: Writable; bytes: () => Buffer; chunks: () => number } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  return { stream, bytes: () => Buffer.concat(chunks), chunks: () => chunks.length };
}

export async function* asyncRows(rows: readonly ExportRow[]): AsyncGenerator<ExportRow> {
  for (const row of rows) yield row;
}
