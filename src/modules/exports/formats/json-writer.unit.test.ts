import { describe, expect, it } from 'vitest';
import type { ExportColumn, FormatOptions } from './export-layout.js';
import {
  asyncRows,
  collect,
  LONG_TEXT,
  MULTILINE_TEXT,
  sampleLayout,
  sampleRows,
  UNICODE_TEXT,
} from './export-sample.test-helper.js';
import { type JsonResponse, writeJson, writeNdjson } from './json-writer.js';

async function textOf(writer: typeof writeJson, options?: FormatOptions, rows = sampleRows()) {
  const out = collect();
  await writer(sampleLayout(), asyncRows(rows), out.stream, options);
  return out.bytes().toString('utf8');
}

describe('json writer', () => {
  it('writes {"responses":[...]} with values, labels, displayedFields and displayedValues', async () => {
    const parsed = JSON.parse(await textOf(writeJson)) as { responses: JsonResponse[] };
    expect(parsed.responses).toHaveLength(2);
    const [first, second] = parsed.responses as [JsonResponse, JsonResponse];
    expect(first.responseId).toBe('R_aaaaaaaaaaaaaaa');
    expect(first.values).toMatchObject({
      startDate: '2021-01-11T18:06:19.000Z',
      recordedDate: '2021-01-11T18:06:40.000Z',
      status: 0,
      QID1: 11,
      QID2_1: 1,
      QID3_TEXT: LONG_TEXT,
      QID5_TEXT: UNICODE_TEXT,
      segment: 'gold',
      score: 4.87,
    });
    expect(first.values).not.toHaveProperty('QID2_2'); // empty values are left out
    expect(first.labels).toMatchObject({ status: 'IP Address', finished: 'True', QID1: 'Strongly agree' });
    expect(first.displayedFields).toContain('QID4_2');
    expect(first.displayedValues).toEqual({ QID1: [11, 12, 13] });
    expect(second.values.QID3_TEXT).toBe(MULTILINE_TEXT);
    expect(second.values).not.toHaveProperty('segment');
    expect(second.displayedValues).toEqual({});
  });

  it('puts labels in values with useLabels and honours timeZone, the recode and newline replacement', async () => {
    const options: FormatOptions = {
      useLabels: true,
      timeZone: 'Europe/Berlin',
      seenUnansweredRecode: -99,
      newlineReplacement: ' ',
    };
    const parsed = JSON.parse(await textOf(writeJson, options)) as { responses: JsonResponse[] };
    const [first, second] = parsed.responses as [JsonResponse, JsonResponse];
    expect(first.values.QID1).toBe('Strongly agree');
    expect(first.values.status).toBe('IP Address');
    expect(first.values.startDate).toBe('2021-01-11T19:06:19.000+01:00');
    expect(second.values.startDate).toBe('2021-07-02T01:30:00.000+02:00');
    expect(second.values.QID1).toBe('-99');
    expect(second.values.QID3_TEXT).toBe('first line second, line third "line"');
  });

  it('copies stored displayed fields and values (displayedJson) into the very bytes it would write', async () => {
    const raw = sampleRows().map(({ displayedFields, displayedValues, ...row }) => ({
      ...row,
      displayedJson: {
        fields: JSON.stringify(displayedFields ?? []),
        values: JSON.stringify(displayedValues ?? {}),
      },
    }));
    expect(await textOf(writeJson, {}, raw)).toBe(await textOf(writeJson));
  });

  it('writes values in layout order, each key once', async () => {
    const layout = sampleLayout();
    const first = layout.columns[0] as ExportColumn;
    const embedded = { ...first, kind: 'embedded' as const, type: 'string' as const };
    // An embedded field spelled like a metadata column: its key is written once, where it first came.
    // A field named like a number stays in its place (a JavaScript object would have moved it first).
    const columns = [...layout.columns, embedded, { ...embedded, key: '7', name: '7', text: '7' }];
    const rows = sampleRows().map((row) => ({ ...row, values: { ...row.values, 7: 'late' } }));
    const out = collect();
    await writeNdjson({ columns }, asyncRows(rows), out.stream);
    const line = out.bytes().toString('utf8').split('\n')[0] as string;
    const valuesText = line.slice(line.indexOf('"values":{'), line.indexOf('},"labels":{'));
    const keys = layout.columns.map((c) => c.key);
    const positions = keys.map((key) => valuesText.indexOf(`"${key}":`)).filter((at) => at >= 0);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(valuesText.split(`"${first.key}":`)).toHaveLength(2);
    expect(valuesText.endsWith('"7":"late"')).toBe(true);
    expect((JSON.parse(line) as JsonResponse).values['7']).toBe('late');
  });

  it('writes a valid document with no responses', async () => {
    expect(JSON.parse(await textOf(writeJson, {}, []))).toEqual({ responses: [] });
  });
});

describe('ndjson writer', () => {
  it('writes one parseable object per line, the same objects as json', async () => {
    const text = await textOf(writeNdjson);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const fromJson = (JSON.parse(await textOf(writeJson)) as { responses: unknown[] }).responses;
    expect(lines.map((line) => JSON.parse(line))).toEqual(fromJson);
    expect(text.endsWith('\n')).toBe(true);
  });
});
