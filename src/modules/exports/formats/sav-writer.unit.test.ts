/**
 * The .sav writer against Debian's `pspp` as the oracle (.ci/run installs it): the test writes a file,
 * has pspp read it (SYSFILE INFO, DISPLAY DICTIONARY, LIST into CSV tables) and checks what pspp saw.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSavWithPspp } from '../../../../test/helpers/pspp.js';
import type { ExportLayout, FormatOptions } from './export-layout.js';
import {
  asyncRows,
  collect,
  LONG_TEXT,
  MULTILINE_TEXT,
  sampleLayout,
  sampleRows,
  UNICODE_TEXT,
} from './export-sample.test-helper.js';
import { writeSavFile, writeSpss } from './sav-writer.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldwork-sav-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const byFirst = (rows: string[][] | undefined) => new Map((rows ?? []).map((row) => [row[0] as string, row]));

describe('spss writer, read back by pspp', () => {
  it('writes names, labels, formats, value labels and values that pspp reads', async () => {
    const path = join(dir, 'sample.sav');
    const result = await writeSavFile(path, sampleLayout(), asyncRows(sampleRows()));
    expect(result).toEqual({ rows: 2, truncatedValues: 0 });
    const { tables, log: output } = await readSavWithPspp(path);
    expect(output).not.toMatch(/warning|error/i);

    const info = byFirst(tables.get('File Information'));
    expect(info.get('Variables')?.[1]).toBe('18');
    expect(info.get('Cases')?.[1]).toBe('2');
    expect(info.get('Compression')?.[1]).toBe('SAV');
    expect(info.get('Encoding')?.[1]).toBe('UTF-8');

    const variables = byFirst(tables.get('Variables')?.slice(1));
    expect([...variables.keys()]).toEqual([
      'StartDate',
      'EndDate',
      'Status',
      'Progress',
      'Duration__in_seconds_',
      'Finished',
      'RecordedDate',
      'ResponseId',
      'UserLanguage',
      'Q1',
      'Q2_1',
      'Q2_2',
      'Q3',
      'Q4_1',
      'Q4_2',
      'Q5_comment',
      'segment',
      'score',
    ]);
    // Name, Position, Label, Measurement Level, Role, Width, Alignment, Print Format, Write Format
    expect(variables.get('StartDate')?.[7]).toBe('DATETIME20.0');
    expect(variables.get('Status')?.slice(2, 4)).toEqual(['Response Type', 'Nominal']);
    expect(variables.get('Q2_1')?.[2]).toBe('Which foods? Ramen');
    expect(variables.get('Q3')?.[7]).toBe('A300');
    expect(variables.get('Q5_comment')?.slice(2, 3)).toEqual(['Comment, please']);
    expect(variables.get('Q5_comment')?.[7]).toBe('A60');
    expect(variables.get('segment')?.[7]).toBe('A40');
    expect(variables.get('ResponseId')?.[7]).toBe('A50');
    expect(variables.get('score')?.[7]).toBe('F40.2');

    const labels = tables
      .get('Value Labels')
      ?.slice(1)
      .map((row) => row.join('|'));
    expect(labels).toEqual(
      expect.arrayContaining([
        'Response Type|0|IP Address',
        '|2|Survey Test',
        '|48|EX Offline',
        'Finished|0|False',
        '|1|True',
        'How do you feel?|11|Strongly agree',
        '|13|Neither agree nor disagree',
        'Which foods? Curry|1|Curry',
      ]),
    );

    const [header, first, second] = tables.get('Data List') as [string[], string[], string[]];
    const cell = (row: string[], name: string) => row[header.indexOf(name)];
    expect(cell(first, 'StartDate')).toBe('11-JAN-2021 18:06:19');
    expect(cell(first, 'RecordedDate')).toBe('11-JAN-2021 18:06:40');
    expect(cell(first, 'Status')).toBe('0');
    expect(cell(first, 'Q1')).toBe('11');
    expect(cell(first, 'Q2_2')).toBe('.');
    expect(cell(first, 'Q3')).toBe(LONG_TEXT);
    expect(cell(first, 'Q5_comment')).toBe(UNICODE_TEXT);
    expect(cell(first, 'score')).toBe('4.87');
    expect(cell(second, 'Q3')).toBe(MULTILINE_TEXT);
    expect(cell(second, 'score')).toBe('-.50');
    expect(cell(second, 'Finished')).toBe('0');
    expect(cell(second, 'segment')).toBe('');
  });

  it('streams with case count -1 (as the real platform does), which pspp also reads', async () => {
    const out = collect();
    await writeSpss(
      sampleLayout(),
      asyncRows(sampleRows()),
      out.stream,
      {},
      new Date('2026-01-02T03:04:05Z'),
    );
    const bytes = out.bytes();
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('$FL2');
    expect(bytes.readInt32LE(80)).toBe(-1);
    expect(bytes.subarray(84 + 8, 84 + 8 + 17).toString('latin1')).toBe('02 Jan 2603:04:05');
    const path = join(dir, 'streamed.sav');
    await writeFile(path, bytes);
    const { tables, log: output } = await readSavWithPspp(path);
    expect(output).not.toMatch(/warning|error/i);
    expect(byFirst(tables.get('File Information')).get('Cases')?.[1]).toBe('Unknown');
    expect(tables.get('Data List')).toHaveLength(3);
  });

  it('splits very long multibyte strings into segments that pspp joins back, and truncates to the width', async () => {
    const long = 'é'.repeat(2500); // 5000 bytes: segment borders fall inside characters
    const layout: ExportLayout = {
      columns: [
        {
          key: 'a',
          name: 'long answer',
          text: 'Long',
          importId: { ImportId: 'a' },
          kind: 'question',
          type: 'string',
          maxBytes: 5000,
        },
        {
          key: 'b',
          name: 'long answer',
          text: 'Same tag',
          importId: { ImportId: 'b' },
          kind: 'question',
          type: 'string',
          maxBytes: 4,
        },
        {
          key: 'c',
          name: 'TO',
          text: 'Reserved',
          importId: { ImportId: 'c' },
          kind: 'embedded',
          type: 'string',
        },
      ],
    };
    const rows = [{ responseId: 'R_1', values: { a: long, b: 'ab€', c: 'x\ny' } }];
    const options: FormatOptions = { newlineReplacement: ' ' };
    const path = join(dir, 'long.sav');
    const result = await writeSavFile(path, layout, asyncRows(rows), options);
    expect(result.truncatedValues).toBe(1); // 'ab€' is 5 bytes in a 4-byte column
    const { tables, log: output } = await readSavWithPspp(path);
    expect(output).not.toMatch(/warning|error/i);
    const variables = tables.get('Variables')?.slice(1) ?? [];
    expect(variables.map((row) => [row[0], row[7]])).toEqual([
      ['long_answer', 'A5000'],
      ['long_answer_2', 'A4'],
      ['TO_', 'A2000'],
    ]);
    const [, first] = tables.get('Data List') as [string[], string[]];
    expect(first).toEqual([long, 'ab', 'x y']);
  });
});
