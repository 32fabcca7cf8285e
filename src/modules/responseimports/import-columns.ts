/**
 * Matches an import file's three header rows (names, texts, ImportId JSON: the csv/tsv export layout,
 * docs/exports.md) to the survey's export columns. A column is found by its ImportId (and choiceId), else
 * by the ImportId and choiceId joined (`QID8#2_1` + `1` is our `QID8#2_1_1`), else by its name in row 1.
 * Columns the survey does not have (display order, questions since deleted) are ignored and listed.
 */

import type { DateFormatter } from '../exports/formats/dates.js';
import type { ExportColumn } from '../exports/formats/export-layout.js';
import { exportLayout } from '../exports/layout/export-columns.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import { zoneOf } from './import-values.js';

/**
 * Every column a csv/tsv export of the survey can have: the breakout layout with the display-order
 * columns, and the joined multi-answer columns of an export made with `breakoutSets: false`.
 */
export function importableColumns(doc: QsfDocument): ExportColumn[] {
  const full = exportLayout(doc, 'csv', { includeDisplayOrder: true }).columns;
  const keys = new Set(full.map((c) => c.key));
  const joined = exportLayout(doc, 'csv', { breakoutSets: false }).columns.filter((c) => !keys.has(c.key));
  return [...full, ...joined];
}

/** The header cannot be the export layout of this survey: the import is refused before anything is written. */
export class ImportHeaderError extends Error {}

export interface ImportColumn {
  /** Position of the column in each record. */
  index: number;
  /** The survey's export column it fills. */
  column: ExportColumn;
  /** Date columns: the zone of header row 3 (`Z` = UTC). */
  timeZone?: string;
  /** Date columns: that zone, ready to read the column's cells with (made once, not once per cell). */
  zone?: DateFormatter;
}

export interface HeaderMatch {
  columns: ImportColumn[];
  /** Row-1 names of the file's columns that no column of the survey matches. */
  ignored: string[];
  /** How many fields every record has (row 1's). */
  width: number;
}

interface ImportIdCell {
  ImportId: string;
  choiceId?: string;
  timeZone?: string;
}

function importIdCell(text: string, index: number, name: string): ImportIdCell {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const cell = json as Partial<ImportIdCell> | undefined;
  if (typeof cell !== 'object' || cell === null || typeof cell.ImportId !== 'string')
    throw new ImportHeaderError(
      `Header row 3, column ${index + 1} (${name}): ${JSON.stringify(text)} is not an ImportId such as {"ImportId":"QID1"}; ` +
        'the file must have the three header rows of a csv or tsv export.',
    );
  return {
    ImportId: cell.ImportId,
    ...(cell.choiceId !== undefined ? { choiceId: String(cell.choiceId) } : {}),
    ...(typeof cell.timeZone === 'string' ? { timeZone: cell.timeZone } : {}),
  };
}

/** A date column's zone, or ImportHeaderError when it is not a zone. */
export function columnZone(timeZone: string, name: string): Pick<ImportColumn, 'timeZone' | 'zone'> {
  try {
    return { timeZone, zone: zoneOf(timeZone) };
  } catch {
    throw new ImportHeaderError(
      `Header row 3, column ${name}: unknown time zone ${JSON.stringify(timeZone)}.`,
    );
  }
}

/** Matches the header rows to the survey's columns, or throws ImportHeaderError naming the problem. */
export function matchHeader(
  rows: string[][],
  layout: readonly ExportColumn[],
  surveyId: string,
): HeaderMatch {
  const [names, , importIds] = rows;
  if (!names || !importIds || rows.length < 3)
    throw new ImportHeaderError(
      'The file needs the three header rows of a csv or tsv export (names, texts, ImportIds).',
    );
  const byImportId = new Map(
    layout.map((c) => [`${c.importId.ImportId}|${c.importId.choiceId ?? ''}`, c] as const),
  );
  const byKey = new Map(layout.map((c) => [c.key, c] as const));
  const byName = new Map(layout.map((c) => [c.name, c] as const));
  const taken = new Set<string>();
  const match: HeaderMatch = { columns: [], ignored: [], width: names.length };
  let questionColumns = 0;
  names.forEach((name, index) => {
    const cell = importIdCell(importIds[index] ?? '', index, name);
    if (/^QID\d/.test(cell.ImportId)) questionColumns++;
    const column =
      byImportId.get(`${cell.ImportId}|${cell.choiceId ?? ''}`) ??
      (cell.choiceId !== undefined
        ? byKey.get(`${cell.ImportId}_${cell.choiceId}`)
        : byKey.get(cell.ImportId)) ??
      byName.get(name);
    if (!column) {
      match.ignored.push(name);
      return;
    }
    if (taken.has(column.key))
      throw new ImportHeaderError(
        `Header: column ${name} fills ${column.name}, which an earlier column fills.`,
      );
    taken.add(column.key);
    match.columns.push({
      index,
      column,
      ...(column.type === 'date' ? columnZone(cell.timeZone ?? 'Z', name) : {}),
    });
  });
  const ours = match.columns.filter((c) => c.column.kind !== 'metadata').length;
  if (match.columns.length === 0 || (questionColumns > 0 && ours === 0))
    throw new ImportHeaderError(
      `Header: none of the file's question columns belongs to survey ${surveyId}; is it an export of another survey?`,
    );
  return match;
}
