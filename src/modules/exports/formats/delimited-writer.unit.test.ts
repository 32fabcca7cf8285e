import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { writeCsv, writeCsv2013, writeTsv } from './delimited-writer.js';
import type { FormatOptions } from './export-layout.js';
import {
  asyncRows,
  collect,
  LONG_TEXT,
  MULTILINE_TEXT,
  sampleLayout,
  sampleRows,
  UNICODE_TEXT,
} from './export-sample.test-helper.js';
import { legacyColumns } from './metadata-columns.js';

async function csvOf(writer: typeof writeCsv, options?: FormatOptions, layout = sampleLayout()) {
  const out = collect();
  const result = await writer(layout, asyncRows(sampleRows()), out.stream, options);
  return { text: out.bytes().toString('utf8'), result };
}

const parseCsv = (text: string, delimiter = ',') =>
  parse(text, { delimiter, relax_column_count: false, bom: true }) as string[][];

describe('csv writer', () => {
  it('writes the three header rows and one record per response, parseable back', async () => {
    const { text, result } = await csvOf(writeCsv);
    expect(result.rows).toBe(2);
    const records = parseCsv(text);
    expect(records).toHaveLength(5);
    const [names, texts, importIds, first, second] = records as [
      string[],
      string[],
      string[],
      string[],
      string[],
    ];
    expect(names.slice(0, 3)).toEqual(['StartDate', 'EndDate', 'Status']);
    expect(names).toContain('Q5 comment');
    expect(texts[names.indexOf('Q2_1')]).toBe('Which foods? - Selected Choice - Ramen');
    expect(importIds[0]).toBe('{"ImportId":"startDate","timeZone":"Z"}');
    expect(importIds[names.indexOf('Q2_2')]).toBe('{"ImportId":"QID2","choiceId":"2"}');
    expect(importIds[names.indexOf('segment')]).toBe('{"ImportId":"segment"}');
    const cell = (row: string[], name: string) => row[names.indexOf(name)];
    expect(cell(first, 'StartDate')).toBe('2021-01-11 18:06:19');
    expect(cell(first, 'RecordedDate')).toBe('2021-01-11 18:06:40');
    expect(cell(first, 'Status')).toBe('0');
    expect(cell(first, 'Finished')).toBe('1');
    expect(cell(first, 'Q1')).toBe('11');
    expect(cell(first, 'Q2_1')).toBe('1');
    expect(cell(first, 'Q2_2')).toBe('');
    expect(cell(first, 'Q3')).toBe(LONG_TEXT);
    expect(cell(first, 'Q5 comment')).toBe(UNICODE_TEXT);
    expect(cell(first, 'score')).toBe('4.87');
    expect(cell(second, 'Q3')).toBe(MULTILINE_TEXT);
    expect(cell(second, 'Q1')).toBe('');
    expect(cell(second, 'segment')).toBe('');
  });

  it('quotes like the real files: only fields with a comma, quote or newline; CRLF records, no BOM', async () => {
    const { text } = await csvOf(writeCsv);
    expect(text.startsWith('StartDate,EndDate,Status,Progress,Duration (in seconds),')).toBe(true);
    expect(text).toContain('"{""ImportId"":""QID2"",""choiceId"":""1""}"');
    expect(text).toContain(`"${UNICODE_TEXT.replace(/"/g, '""')}"`);
    expect(text).toContain('"first line\nsecond, line\r\nthird ""line"""');
    expect(text.split('\r\n')[0]?.includes('\n')).toBe(false);
    expect(text.endsWith('\r\n')).toBe(true);
  });

  it('writes labels with useLabels, from the row or from the value labels', async () => {
    const records = parseCsv((await csvOf(writeCsv, { useLabels: true })).text);
    const names = records[0] as string[];
    const [first, second] = [records[3] as string[], records[4] as string[]];
    expect(first[names.indexOf('Status')]).toBe('IP Address');
    expect(first[names.indexOf('Finished')]).toBe('True');
    expect(first[names.indexOf('Q1')]).toBe('Strongly agree');
    expect(first[names.indexOf('Q2_1')]).toBe('Ramen');
    expect(second[names.indexOf('Status')]).toBe('Survey Test');
    expect(second[names.indexOf('Finished')]).toBe('False');
    expect(second[names.indexOf('Q2_2')]).toBe('Curry');
  });

  it('applies timeZone to values and header row 3, the seen-unanswered recode, decimal comma and newline replacement', async () => {
    const options: FormatOptions = {
      timeZone: 'America/Denver',
      seenUnansweredRecode: -99,
      formatDecimalAsComma: true,
      newlineReplacement: ' / ',
    };
    const records = parseCsv((await csvOf(writeCsv, options)).text);
    const names = records[0] as string[];
    const [first, second] = [records[3] as string[], records[4] as string[]];
    const cell = (row: string[], name: string) => row[names.indexOf(name)];
    expect(records[2]?.[0]).toBe('{"ImportId":"startDate","timeZone":"America/Denver"}');
    expect(cell(first, 'StartDate')).toBe('2021-01-11 11:06:19'); // MST, UTC-7
    expect(cell(second, 'StartDate')).toBe('2021-07-01 17:30:00'); // MDT, UTC-6
    expect(cell(first, 'score')).toBe('4,87');
    expect(cell(second, 'score')).toBe('-0,5');
    expect(cell(second, 'Q1')).toBe('-99'); // shown, unanswered
    expect(cell(second, 'Q5 comment')).toBe(''); // not shown
    expect(cell(second, 'segment')).toBe(''); // embedded data never gets the recode
    expect(cell(second, 'Q3')).toBe('first line / second, line / third "line"');
  });

  it('rejects an unknown time zone before writing anything', async () => {
    await expect(csvOf(writeCsv, { timeZone: 'Mars/Olympus' })).rejects.toThrow(RangeError);
  });
});

describe('tsv writer', () => {
  it('writes the same three header rows, tab-delimited, and parses back', async () => {
    const { text } = await csvOf(writeTsv);
    const records = parseCsv(text, '\t');
    const csvRecords = parseCsv((await csvOf(writeCsv)).text);
    expect(records).toEqual(csvRecords);
    expect(text.split('\r\n')[0]).toContain('StartDate\tEndDate\t');
    expect(text).toContain('\t"{""ImportId"":""QID1""}"\t');
  });
});

describe('csv2013 writer', () => {
  it('writes the legacy two header rows with a BOM and a trailing empty column', async () => {
    const layout = { columns: legacyColumns(sampleLayout().columns.filter((c) => c.kind === 'question')) };
    const { text } = await csvOf(writeCsv2013, {}, layout);
    expect(text.startsWith('\uFEFFV1,V2,V3,V4,V5,V6,V7,V8,V9,V10,Q1,Q2_1,')).toBe(true);
    const records = parseCsv(text);
    expect(records).toHaveLength(4);
    const [names, labels, first] = records as [string[], string[], string[]];
    expect(names.at(-1)).toBe('');
    expect(names.at(-2)).toBe('LocationAccuracy');
    expect(labels.slice(0, 10)).toEqual([
      'ResponseID',
      'ResponseSet',
      'Name',
      'ExternalDataReference',
      'EmailAddress',
      'IPAddress',
      'Status',
      'StartDate',
      'EndDate',
      'Finished',
    ]);
    expect(first[0]).toBe('R_aaaaaaaaaaaaaaa');
    expect(first[7]).toBe('2021-01-11 18:06:19');
    expect(first[9]).toBe('1');
    expect(first[names.indexOf('Q1')]).toBe('11');
    expect(first.at(-1)).toBe('');
  });
});
