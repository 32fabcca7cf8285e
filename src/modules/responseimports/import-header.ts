/**
 * Which columns of an import file fill which columns of the survey, per format: csv/tsv by their row-3
 * ImportIds (import-columns.ts); csv2013 by position, as it has no ImportId row, so its row-1 names must
 * be those of our own csv2013 export of the survey (docs/exports.md "Response imports").
 */

import type { ExportColumn } from '../exports/formats/export-layout.js';
import { exportLayout } from '../exports/layout/export-columns.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import {
  columnZone,
  type HeaderMatch,
  ImportHeaderError,
  importableColumns,
  matchHeader,
} from './import-columns.js';
import type { ImportFormat } from './import-file.js';

/**
 * The csv2013 layouts an export of ours can have. A column selection or `breakoutSets: false` export
 * is not among them: by position alone its columns cannot be told apart safely.
 */
function legacyLayouts(doc: QsfDocument): ExportColumn[][] {
  return [
    exportLayout(doc, 'csv2013').columns.slice(),
    exportLayout(doc, 'csv2013', { includeDisplayOrder: true }).columns.slice(),
  ];
}

/** Row 1 without the trailing empty column every csv2013 line ends with. */
function legacyNames(names: readonly string[]): string[] {
  return names.at(-1) === '' ? names.slice(0, -1) : names.slice();
}

function firstDifference(names: readonly string[], layout: readonly ExportColumn[]): string {
  const at = names.findIndex((name, i) => name !== layout[i]?.name);
  if (at === -1)
    return `the file has ${names.length} columns, our csv2013 export ${layout.length}: ${layout[names.length]?.name ?? ''} is missing.`;
  const want = layout[at]?.name;
  return `column ${at + 1} is ${JSON.stringify(names[at])}, our csv2013 export has ${want === undefined ? 'no column there' : JSON.stringify(want)}.`;
}

/** csv2013: every column by position, once row 1 equals our layout's names. */
export function matchLegacyHeader(rows: string[][], layouts: readonly ExportColumn[][]): HeaderMatch {
  const [names, texts] = rows;
  if (!names || !texts)
    throw new ImportHeaderError('The file needs the two header rows of a csv2013 export (names, texts).');
  const given = legacyNames(names);
  const layout = layouts.find(
    (l) => l.length === given.length && l.every((column, i) => column.name === given[i]),
  );
  if (!layout)
    throw new ImportHeaderError(
      `Header row 1 is not our csv2013 export of the survey: ${firstDifference(given, layouts[0] ?? [])}`,
    );
  return {
    // csv2013 dates carry no zone: UTC, as our csv2013 export writes them by default.
    columns: layout.map((column, index) => ({
      index,
      column,
      ...(column.type === 'date' ? columnZone('Z', column.name) : {}),
    })),
    ignored: [],
    width: names.length,
  };
}

/** The file's header rows matched to the survey, or ImportHeaderError naming the problem. */
export function matchFileHeader(
  doc: QsfDocument,
  rows: string[][],
  format: ImportFormat,
  surveyId: string,
): HeaderMatch {
  if (format === 'csv2013') return matchLegacyHeader(rows, legacyLayouts(doc));
  return matchHeader(rows, importableColumns(doc), surveyId);
}
