import { XMLParser, XMLValidator } from 'fast-xml-parser';
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
import { escapeXmlText, writeXml, xmlElementName } from './xml-writer.js';

async function xmlOf(options?: FormatOptions, layout = sampleLayout(), rows = sampleRows()) {
  const out = collect();
  await writeXml(layout, asyncRows(rows), out.stream, options);
  return out.bytes().toString('utf8');
}

type Parsed = { Responses: { Response: Record<string, string>[] } };
const parser = new XMLParser({
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
});

describe('xml writer', () => {
  it('writes a well-formed <Responses><Response> document with one element per column key', async () => {
    const xml = await xmlOf();
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Responses><Response><startDate>')).toBe(
      true,
    );
    const parsed = parser.parse(xml) as Parsed;
    const [first, second] = parsed.Responses.Response as [Record<string, string>, Record<string, string>];
    expect(first.startDate).toBe('2021-01-11 18:06:19');
    expect(first._recordId).toBe('R_aaaaaaaaaaaaaaa');
    expect(first.QID1).toBe('11');
    expect(first.QID3_TEXT).toBe(LONG_TEXT);
    expect(first.QID5_TEXT).toBe(UNICODE_TEXT);
    expect(first.QID2_2).toBe('');
    expect(xml).toContain('<QID2_2></QID2_2>');
    // CR is written as &#13; so the parser gives back the text exactly.
    expect(second.QID3_TEXT).toBe(MULTILINE_TEXT);
  });

  it('writes labels with useLabels, like the real platform', async () => {
    const first = (parser.parse(await xmlOf({ useLabels: true })) as Parsed).Responses.Response[0];
    expect(first?.status).toBe('IP Address');
    expect(first?.finished).toBe('True');
    expect(first?.QID4_2).toBe('Neither agree nor disagree');
  });

  it('stays well-formed with markup, control characters and odd embedded-data names', async () => {
    const odd: ExportColumn = {
      key: '1st field <x>',
      name: '1st field',
      text: 'odd',
      importId: { ImportId: '1st field' },
      kind: 'embedded',
      type: 'string',
    };
    const rows = [{ responseId: 'R_1', values: { '1st field <x>': 'a < b && c > d \u0001 ]]> \uD800' } }];
    const xml = await xmlOf({}, { columns: [odd] }, rows);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xmlElementName(odd.key)).toBe('_1st_field__x_');
    const parsed = parser.parse(xml) as { Responses: { Response: Record<string, string> } };
    expect(parsed.Responses.Response._1st_field__x_).toBe('a < b && c > d \uFFFD ]]> \uFFFD');
    expect(escapeXmlText('plain')).toBe('plain');
  });
});
