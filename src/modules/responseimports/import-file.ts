/**
 * Reads a response import file (the csv, tsv or csv2013 export layout) as a stream: the header rows
 * first, then one record at a time, so a file of a million responses never sits whole in memory.
 */
import { type CsvDialect, readCsvRecords, UnreadableFileError } from '../../files/import-file.js';

export { UnreadableFileError };

/** Whether reading failed because the file (or a directory on its path) is not there. */
export function isFileGone(error: unknown): boolean {
  return (error as { code?: unknown } | null | undefined)?.code === 'ENOENT';
}

export type ImportFormat = 'csv' | 'tsv' | 'csv2013';

/** Header rows of the export layouts: csv/tsv have names, texts, ImportIds; csv2013 names and texts. */
export const headerRowsOf = (format: ImportFormat): number => (format === 'csv2013' ? 2 : 3);

export interface ImportRecord {
  /** 1-based position among the file's responses (the header rows are not counted). */
  row: number;
  cells: string[];
}

/**
 * Files from other tools: rows of any length (told apart later, per row) and a record up to 16 MiB. Read
 * 16 KiB at a time: the parser turns a chunk into records in one go, and the batch being written waits
 * for it (100,000 rows on PostgreSQL: 7.4–7.8 s against 7.8–8.4 s with 256 KiB chunks).
 */
const dialectOf = (format: ImportFormat): CsvDialect => ({
  delimiter: format === 'tsv' ? '\t' : ',',
  maxRecordBytes: 16 * 1024 * 1024,
  lenient: true,
  chunkBytes: 16 * 1024,
});

/**
 * Every record of the file, header rows included; `onBytes` hears how far reading has come. Counting
 * (`whole`) reads 256 KiB at a time: nothing waits between its records.
 */
function records(path: string, format: ImportFormat, onBytes?: (bytesRead: number) => void, whole = false) {
  const dialect = dialectOf(format);
  return readCsvRecords(path, whole ? { ...dialect, chunkBytes: 256 * 1024 } : dialect, onBytes);
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

/**
 * Reads the whole file once, as the import will, and counts its responses; throws UnreadableFileError.
 * Once `signal` is aborted it stops reading (the count it answers is then short).
 */
export async function countImportRecords(
  path: string,
  format: ImportFormat,
  signal?: AbortSignal,
): Promise<number> {
  let count = 0;
  for await (const _record of records(path, format, undefined, true)) {
    if (signal?.aborted) break;
    count++;
  }
  return Math.max(0, count - headerRowsOf(format));
}

/** A failure to read the file, as a thread sends it (an Error's class does not cross a thread). */
export interface ReadFailure {
  kind: 'failed';
  reason: 'unreadable' | 'gone' | 'error';
  message: string;
}

export function failureOf(error: unknown): ReadFailure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof UnreadableFileError) return { kind: 'failed', reason: 'unreadable', message };
  if (isFileGone(error)) return { kind: 'failed', reason: 'gone', message };
  return { kind: 'failed', reason: 'error', message: (error instanceof Error && error.stack) || message };
}

/** The failure a message reports, as the error the job knows (fileOrFail turns the first two into JobFailure). */
export function errorOf(failure: ReadFailure): Error {
  if (failure.reason === 'unreadable') return new UnreadableFileError(failure.message);
  if (failure.reason === 'gone') return Object.assign(new Error(failure.message), { code: 'ENOENT' });
  return new Error(`Reading the import file failed: ${failure.message}`);
}
