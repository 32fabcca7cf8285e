/**
 * Reading an uploaded import file (contact imports, response imports) as a stream, so a file of a million
 * rows never sits whole in memory. One reader for both kinds: the file opened with its progress heard,
 * CSV/TSV records through csv-parse (a byte-order mark dropped, blank lines skipped, a record's size
 * capped), and a parser's failure turned into one error that says the file cannot be read. What the rows
 * mean (contact fields, export columns) stays with the module that imports them.
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';

/** The file cannot be read as CSV/TSV (a quote left open, a record too long …): the whole import is refused. */
export class UnreadableFileError extends Error {}

export interface CsvDialect {
  delimiter?: ',' | '\t';
  /** The longest record taken, in bytes: a larger one makes the file unreadable, not the reader's memory. */
  maxRecordBytes: number;
  /** Rows of any length and quotes inside unquoted cells taken as they are (files from other tools). */
  lenient?: boolean;
  /**
   * Bytes read at a time (256 KiB unless given). The parser turns a whole chunk into records at once, and
   * they wait for the reader: a reader that writes between records keeps fewer waiting with smaller chunks.
   */
  chunkBytes?: number;
}

export interface OpenedImportFile {
  source: ReadStream;
  /** Starts reporting `onBytes`: call it once the source is piped (a 'data' listener alone starts the flow). */
  piped: () => void;
}

/** The file as a stream; `onBytes` hears how far into the file reading has come. */
export function openImportFile(
  path: string,
  onBytes?: (bytesRead: number) => void,
  chunkBytes = 256 * 1024,
): OpenedImportFile {
  const source = createReadStream(path, { highWaterMark: chunkBytes });
  const piped = onBytes ? () => void source.on('data', () => onBytes(source.bytesRead)) : () => {};
  return { source, piped };
}

/** Every record of a CSV/TSV file, as its cells; throws UnreadableFileError when the parser cannot go on. */
export async function* readCsvRecords(
  path: string,
  dialect: CsvDialect,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<string[]> {
  const { source, piped } = openImportFile(path, onBytes, dialect.chunkBytes);
  const csv = parse({
    bom: true,
    delimiter: dialect.delimiter ?? ',',
    skip_empty_lines: true,
    max_record_size: dialect.maxRecordBytes,
    ...(dialect.lenient ? { relax_column_count: true, relax_quotes: true } : {}),
  });
  const records = chain(source, csv);
  piped();
  try {
    for await (const record of records as AsyncIterable<string[]>) yield record;
  } catch (error) {
    // csv-parse's codes do not all start with CSV_ (INVALID_OPENING_QUOTE does not): its class tells.
    if (error instanceof CsvError) throw new UnreadableFileError(`The file cannot be read: ${error.message}`);
    throw error;
  } finally {
    source.destroy();
    csv.destroy();
  }
}

/** The file's first bytes as text, a byte-order mark and leading white space dropped: enough to tell its shape. */
export async function readFileStart(path: string, bytes = 4096): Promise<string> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
  } finally {
    await handle.close();
  }
}

/** Pipes the streams one into the next; an error anywhere ends the last one with that error. */
export function chain(...streams: (Readable | Writable)[]): Readable {
  for (let i = 0; i < streams.length - 1; i++) {
    const from = streams[i] as Readable;
    const to = streams[i + 1] as Writable;
    from.pipe(to);
    from.on('error', (error) => (streams.at(-1) as Readable).destroy(error));
  }
  return streams.at(-1) as Readable;
}
