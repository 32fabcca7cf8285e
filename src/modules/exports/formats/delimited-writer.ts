/**
 * csv, tsv and csv2013 (COMPAT.md "Response exports"; the real files in ../shared/fixtures/exports):
 * - csv: three header rows (names; texts; `{"ImportId":...}` JSON, dates with their `timeZone`), UTF-8
 *   without BOM, CRLF records, a field quoted only when it holds the delimiter, a quote, CR or LF — the
 *   quoting of the real zip members; newlines inside a quoted field stay bare.
 * - tsv: the same three rows, tab-delimited, quoted the same way.
 * - csv2013: two header rows (`V1..`, then `ResponseID,...`), UTF-8 BOM, and a trailing empty column on
 *   every line, as in the real legacy files.
 * Quoting is ours (a dozen lines) rather than csv-stringify's: the header rows must match the real files
 * byte for byte, and the benchmark measures it against csv-stringify.
 */
import type { Writable } from 'node:stream';
import { type CellText, cellSettings, cellText, seenFields } from './cells.js';
import { TextOutput } from './chunked-output.js';
import type { ExportColumn, ExportLayout, ExportRows, FormatOptions, WriteResult } from './export-layout.js';

export interface Dialect {
  delimiter: ',' | '\t';
  headerRows: 2 | 3;
  bom: boolean;
  trailingDelimiter: boolean;
}

export const CSV: Dialect = { delimiter: ',', headerRows: 3, bom: false, trailingDelimiter: false };
export const TSV: Dialect = { delimiter: '\t', headerRows: 3, bom: false, trailingDelimiter: false };
export const CSV2013: Dialect = { delimiter: ',', headerRows: 2, bom: true, trailingDelimiter: true };

const RECORD_END = '\r\n';
const NEEDS_QUOTES = { ',': /[",\r\n]/, '\t': /["\t\r\n]/ } as const;
const QUOTE = /"/g;

export function quoter(delimiter: Dialect['delimiter']): (field: string) => string {
  const special = NEEDS_QUOTES[delimiter];
  return (field) => (special.test(field) ? `"${field.replace(QUOTE, '""')}"` : field);
}

/** Header row 3: the column's ImportId JSON; date columns carry the export's zone (`Z` when none). */
export function importIdText(column: ExportColumn, options: FormatOptions): string {
  const json: Record<string, string> = { ImportId: column.importId.ImportId };
  if (column.importId.choiceId !== undefined) json.choiceId = column.importId.choiceId;
  if (column.type === 'date') json.timeZone = options.timeZone ?? 'Z';
  return JSON.stringify(json);
}

/** The header rows of a dialect, as text (each record ended with CRLF). */
export function headerText(layout: ExportLayout, dialect: Dialect, options: FormatOptions = {}): string {
  const quote = quoter(dialect.delimiter);
  const rows = [layout.columns.map((c) => c.name), layout.columns.map((c) => c.text)];
  if (dialect.headerRows === 3) rows.push(layout.columns.map((c) => importIdText(c, options)));
  const end = (dialect.trailingDelimiter ? dialect.delimiter : '') + RECORD_END;
  return (
    (dialect.bom ? '\uFEFF' : '') +
    rows.map((fields) => fields.map(quote).join(dialect.delimiter) + end).join('')
  );
}

/** Writes the header rows, then one record per row, in ~64 KB chunks; does not end `out`. */
export async function writeDelimited(
  dialect: Dialect,
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions = {},
): Promise<WriteResult> {
  const settings = cellSettings(options);
  const cells: CellText[] = layout.columns.map((column) => cellText(column, settings));
  const quote = quoter(dialect.delimiter);
  const { delimiter } = dialect;
  const end = (dialect.trailingDelimiter ? delimiter : '') + RECORD_END;
  const output = new TextOutput(out);
  await output.write(headerText(layout, dialect, options));
  let count = 0;
  for await (const row of rows) {
    const seen = seenFields(row, settings);
    let line = '';
    for (let i = 0; i < cells.length; i++) {
      if (i > 0) line += delimiter;
      line += quote((cells[i] as CellText)(row, seen));
    }
    count++;
    const waiting = output.write(line + end);
    if (waiting) await waiting;
  }
  await output.flush();
  return { rows: count };
}

export const writeCsv = (layout: ExportLayout, rows: ExportRows, out: Writable, options?: FormatOptions) =>
  writeDelimited(CSV, layout, rows, out, options);
export const writeTsv = (layout: ExportLayout, rows: ExportRows, out: Writable, options?: FormatOptions) =>
  writeDelimited(TSV, layout, rows, out, options);
export const writeCsv2013 = (
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options?: FormatOptions,
) => writeDelimited(CSV2013, layout, rows, out, options);
