/**
 * One entry point for the export job: picks the format's writer and streams its output either into a zip
 * entry named like the real platform's (`<Survey Name>.csv`, COMPAT.md "Response exports") or, with
 * `compress: false`, as the bare file. Bytes reach `destination` as rows come in; it is ended at the end.
 */
import { PassThrough, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
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
  if (request.compress === false) {
    const result = await writer(layout, rows, destination, options);
    destination.end();
    await finished(destination);
    return { ...result, fileName: entryName, contentType: FORMAT_FILES[format].contentType };
  }
  const entry = new PassThrough({ highWaterMark: CHUNK_BYTES });
  const zip = new ZipFile();
  zip.addReadStream(entry, entryName, { compress: true, mtime: request.modified ?? new Date() });
  zip.end();
  const zipped = pipeline(zip.outputStream, destination);
  // A destination that fails must also stop a writer waiting for the entry to drain.
  zipped.catch((error: Error) => entry.destroy(error));
  try {
    const result = await writer(layout, rows, entry, options);
    entry.end();
    await zipped;
    const zipName = `${entryName.slice(0, entryName.lastIndexOf('.'))}.zip`;
    return { ...result, fileName: zipName, contentType: 'application/zip' };
  } catch (error) {
    entry.destroy(error as Error);
    destination.destroy(error as Error);
    await zipped.catch(() => undefined);
    throw error;
  }
}
