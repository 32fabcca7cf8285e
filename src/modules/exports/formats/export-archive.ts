/**
 * One entry point for the export job: picks the format's writer and streams its output either into a zip
 * entry named like the real platform's (`<Survey Name>.csv`, COMPAT.md "Response exports") or, with
 * `compress: false`, as the bare file. Bytes reach `destination` as rows come in; it is ended at the end.
 */
import { PassThrough, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { CHUNK_BYTES } from './chunked-output.js';
import { writeCsv, writeCsv2013, writeTsv } from './delimited-writer.js';
import {
  type ExportFormat,
  type ExportLayout,
  type ExportRows,
  FORMAT_FILES,
  type FormatOptions,
  type WriteResult,
} from './export-layout.js';
import { writeJson, writeNdjson } from './json-writer.js';
import { writeSpss } from './sav-writer.js';
import { writeXml } from './xml-writer.js';

export type FormatWriter = (
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options?: FormatOptions,
) => Promise<WriteResult>;

export const FORMAT_WRITERS: Readonly<Record<ExportFormat, FormatWriter>> = {
  csv: writeCsv,
  csv2013: writeCsv2013,
  tsv: writeTsv,
  json: writeJson,
  ndjson: writeNdjson,
  xml: writeXml,
  spss: (layout, rows, out, options) => writeSpss(layout, rows, out, options),
};

/** `<Survey Name>.csv`: the survey name with path separators and control characters replaced. */
export function exportFileName(surveyName: string, format: ExportFormat): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const safe = surveyName.replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'export';
  return `${safe}.${FORMAT_FILES[format].extension}`;
}

export interface ExportArchiveRequest {
  format: ExportFormat;
  layout: ExportLayout;
  rows: ExportRows;
  options?: FormatOptions;
  /** Name of the survey: the zip entry is `<surveyName>.<extension>`. */
  surveyName: string;
  /** false: the bare file, not a zip (v3 `compress: false`). */
  compress?: boolean;
  destination: Writable;
  /** Modification time of the zip entry (defaults to now). */
  modified?: Date;
}

export interface ExportArchiveResult extends WriteResult {
  fileName: string;
  contentType: string;
}

/** Writes the export to `destination` (zipped unless `compress` is false) and ends it. */
export async function writeExportArchive(request: ExportArchiveRequest): Promise<ExportArchiveResult> {
  const { format, layout, rows, options, destination } = request;
  const writer = FORMAT_WRITERS[format];
  const entryName = exportFileName(request.surveyName, format);
  const write = (out: Writable) => writer(layout, rows, out, options);
  if (request.compress === false) {
    const result = await streamInto(destination, write);
    return { ...result, fileName: entryName, contentType: FORMAT_FILES[format].contentType };
  }
  const zip = { name: entryName, modified: request.modified ?? new Date() };
  const result = await streamInto(destination, write, zip);
  const zipName = `${entryName.slice(0, entryName.lastIndexOf('.'))}.zip`;
  return { ...result, fileName: zipName, contentType: 'application/zip' };
}

/**
 * Runs `write` into a stream that ends in `destination` (through a zip entry when `zip` is given) and
 * waits for the last byte to be written. Every stream in between has its error handled: a destination
 * that fails (a directory missing on this node, a full disk) rejects with its own error and stops the
 * writer, and no stream is left to emit an 'error' nobody listens to, which would end the process.
 */
async function streamInto<T>(
  destination: Writable,
  write: (out: Writable) => Promise<T>,
  zip?: { name: string; modified: Date },
): Promise<T> {
  const entry = new PassThrough({ highWaterMark: CHUNK_BYTES });
  // The writer learns of a failure from its next write or its wait for 'drain' (chunked-output.ts);
  // the error itself is the one `delivered` rejects with.
  entry.on('error', () => {});
  const delivered = zip ? zipInto(entry, zip, destination) : pipeline(entry, destination);
  // Awaited below; until then a failure must not count as an unhandled rejection (which ends the process).
  delivered.catch(() => undefined);
  try {
    const result = await write(entry);
    entry.end();
    await delivered;
    return result;
  } catch (error) {
    entry.destroy(error as Error);
    destination.destroy(error as Error);
    // The destination's own failure, when it came first, says more than the writer's "closed".
    throw await delivered.then(
      () => error,
      (failure: unknown) => failure,
    );
  }
}

/** The zip of one entry, into `destination`. */
function zipInto(entry: PassThrough, zip: { name: string; modified: Date }, destination: Writable) {
  const file = new ZipFile();
  file.addReadStream(entry, zip.name, { compress: true, mtime: zip.modified });
  file.end();
  const delivered = pipeline(file.outputStream, destination);
  // yazl reads the entry through pipes that do not carry the destination's failure back to it.
  delivered.catch((error: Error) => entry.destroy(error));
  return delivered;
}
