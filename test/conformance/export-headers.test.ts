/**
 * Issue 6: the csv and csv2013 writers write the header rows of the real platform's exports byte for
 * byte. The metadata columns are Fieldwork's own definitions (metadata-columns.ts); the question and
 * embedded-data columns are read from the real file, as the survey definition will give them once
 * surveys exist (the full round trip through a stored survey comes with the export endpoints).
 * Files committed to git with LF are compared line by line; the zip members (CRLF) byte for byte.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV, CSV2013, headerText } from '../../src/modules/exports/formats/delimited-writer.js';
import type { ExportColumn, ImportId } from '../../src/modules/exports/formats/export-layout.js';
import { currentMetadataColumns, legacyColumns } from '../../src/modules/exports/formats/metadata-columns.js';
import { requireShared, SHARED } from './shared.js';

const EXPORTS = join(SHARED, 'fixtures', 'exports');
const read = (file: string) => readFileSync(join(EXPORTS, file));

beforeAll(requireShared);

/** The first `count` records of a file, as the raw text of each line (header rows hold no newlines). */
function headerLines(bytes: Buffer, count: number): string[] {
  return bytes.toString('utf8').split(/\r?\n/).slice(0, count);
}

function questionColumns(names: string[], texts: string[], importIds: string[] | undefined): ExportColumn[] {
  return names.map((name, i) => {
    const json = importIds
      ? (JSON.parse(importIds[i] as string) as ImportId & { timeZone?: string })
      : undefined;
    const importId: ImportId = { ImportId: json?.ImportId ?? name };
    if (json?.choiceId !== undefined) importId.choiceId = json.choiceId;
    return {
      key: importId.ImportId,
      name,
      text: texts[i] as string,
      importId,
      kind: 'question',
      type: json?.timeZone ? 'date' : 'string',
    };
  });
}

const CURRENT_FILES = [
  { file: 'qualtRics-apitestproject-csv.csv', anonymized: false, timeZone: undefined },
  { file: 'qualtRics-salami-csv.csv', anonymized: true, timeZone: 'America/Denver' },
  { file: 'qualtrics-spss-menu-csv.csv', anonymized: false, timeZone: undefined },
  { file: 'qualtrics-spss-menu-csv-labels.csv', anonymized: false, timeZone: 'America/New_York' },
];

describe('csv header rows against the real exports', () => {
  for (const { file, anonymized, timeZone } of CURRENT_FILES) {
    it(`${file}: three header rows byte for byte`, () => {
      const bytes = read(file);
      const [names, texts, importIds] = parse(bytes, { to: 3 }) as [string[], string[], string[]];
      const metadata = currentMetadataColumns({ anonymized });
      expect(names.slice(0, metadata.length)).toEqual(metadata.map((c) => c.name));
      const questions = questionColumns(names, texts, importIds).slice(metadata.length);
      const ours = headerText({ columns: [...metadata, ...questions] }, CSV, { timeZone });
      if (bytes.includes('\r\n')) {
        expect(bytes.subarray(0, Buffer.byteLength(ours)).toString('utf8')).toBe(ours);
      } else {
        expect(ours.split('\r\n').slice(0, 3)).toEqual(headerLines(bytes, 3));
      }
    });
  }
});

describe('csv2013 header rows against the real legacy exports', () => {
  for (const file of ['qualtRics-sample_legacy-csv2013.csv', 'QualtricsTools-nobasis-csv2013.csv']) {
    it(`${file}: BOM, V1..V10, questions, location columns and the trailing comma`, () => {
      const bytes = read(file);
      const [names, texts] = parse(bytes, { to: 2, bom: true }) as [string[], string[]];
      const first = names.indexOf('V10') + 1;
      const last = names.indexOf('LocationLatitude');
      const questions = questionColumns(names.slice(first, last), texts.slice(first, last), undefined);
      const ours = headerText({ columns: legacyColumns(questions) }, CSV2013);
      expect(ours.startsWith('\uFEFF')).toBe(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])));
      expect(ours.split('\r\n').slice(0, 2)).toEqual(headerLines(bytes, 2));
    });
  }
});
