/**
 * Reads a response import file (the csv, tsv or csv2013 export layout) as a stream: the header rows
 * first, then one record at a time, so a file of a million responses never sits whole in memory.
 */
import { createReadStream } from 'node:fs';
import { CsvError, type Parser, parse } from 'csv-parse';

export type ImportFormat = 'csv' | 'tsv' | 'csv2013';

/** Header rows of the export layouts: csv/tsv have names, texts, ImportIds; csv2013 names and texts. */
export const headerRowsOf = (format: ImportFormat): number => (format === 'csv2013' ? 2 : 3);

/** The file cannot be read as csv/tsv (a quote left open, a record too long …). */
export class UnreadableFileError extends Error {}

export interface ImportRecord {
  /** 1-based position among the file's responses (the header rows are not counted). */
  row: number;
  cells: string[];
}

function parser(format: ImportFormat): Parser {
  return parse({
    bom: true,
    delimiter: format === 'tsv' ? '\t' : ',',
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: 16 * 1024 * 1024,
  });
}

/** Every record of the file, header rows included; `onBytes` hears how far reading has come. */
async function* records(
  path: string,
  format: ImportFormat,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<string[]> {
  const source = createReadStream(path, { highWaterMark: 256 * 1024 });
  const csv = parser(format);
  source.on('error', (error) => csv.destroy(error));
  if (onBytes) source.on('data', () => onBytes(source.bytesRead));
  source.pipe(csv);
  try {
    for await (const record of csv as AsyncIterable<string[]>) yield record;
  } catch (error) {
    // csv-parse's codes do not all start with CSV_ (INVALID_OPENING_QUOTE does not): its class tells.
    if (error instanceof CsvError)
      throw new UnreadableFileError(`The file cannot be read: ${(error as Error).message}`);
    throw error;
  } finally {
    source.destroy();
    csv.destroy();
  }
}

/** The header rows (fewer when the file is shorter). */
export async function readHeaderRows(path: string, format: ImportFormat): Promise<string[][]> {
  const rows: string[][] = [];
  for await (const record of records(path, format)) {
    rows.push(record);
    if (rows.length === headerRowsOf(format)) break;
  }
  return rows;
}

/** The file's responses, one record at a time, after the header rows. */
export async function* readImportRecords(
  path: string,
  format: ImportFormat,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<ImportRecord> {
  const headerRows = headerRowsOf(format);
  let line = 0;
  for await (const cells of records(path, format, onBytes)) {
    line++;
    if (line > headerRows) yield { row: line - headerRows, cells };
  }
}

/** Reads the whole file once, as the import will, and counts its responses; throws UnreadableFileError. */
export async function countImportRecords(path: string, format: ImportFormat): Promise<number> {
  let count = 0;
  for await (const _record of readImportRecords(path, format)) count++;
  return count;
}
