/**
 * spss: our streaming .sav writer (no npm package streams .sav or writes strings over 255 bytes). The
 * dictionary comes from the layout, so string widths must be known before the first row: the caller
 * passes each string column's `maxBytes` from a cheap pre-pass (see export-layout.ts). Cases are
 * bytecode-compressed as they arrive; the case count stays -1 in the header, as the real platform
 * writes it, unless the output is a file that `writeSavFile` patches at the end.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { cellSettings, isEmptyValue, replaceNewlines, seenFields } from './cells.js';
import { ByteOutput } from './chunked-output.js';
import { type DateFormatter, toEpochMs } from './dates.js';
import type { ExportLayout, ExportRow, ExportRows, FormatOptions, WriteResult } from './export-layout.js';
import { buildDictionary, type SavSegment, type SavVariable } from './sav-dictionary.js';
import { CASE_COUNT_OFFSET, putDictionary } from './sav-records.js';

const BIAS = 100;
const GREGORIAN_EPOCH_S = 12_219_379_200; // seconds from 14 October 1582 to 1 January 1970
const SPACES = 0x20202020; // four spaces, compared twice per 8-byte element

/** Bytecode compression: blocks of 8 one-byte codes, each block followed by its 8-byte literals. */
class CompressedCases {
  private readonly codes = Buffer.alloc(8);
  private readonly literals = Buffer.alloc(64);
  private count = 0;
  private literalCount = 0;

  constructor(private readonly out: ByteOutput) {}

  number(value: number | undefined): void {
    if (value === undefined || Number.isNaN(value)) {
      this.code(255); // system-missing
      return;
    }
    if (Number.isInteger(value) && value >= 1 - BIAS && value <= 251 - BIAS && !Object.is(value, -0)) {
      this.code(value + BIAS);
      return;
    }
    this.literals.writeDoubleLE(value, this.literalCount * 8);
    this.literalCount++;
    this.code(253);
  }

  /** The first `length` bytes of `bytes`, whole 8-byte elements; from `filled` on they are all spaces. */
  string(bytes: Buffer, length: number, filled: number): void {
    for (let at = 0; at < length; at += 8) {
      if (at >= filled || (bytes.readUInt32LE(at) === SPACES && bytes.readUInt32LE(at + 4) === SPACES)) {
        this.code(254);
        continue;
      }
      bytes.copy(this.literals, this.literalCount * 8, at, at + 8);
      this.literalCount++;
      this.code(253);
    }
  }

  finish(): void {
    if (this.count === 0) return;
    this.codes.fill(0, this.count);
    this.flush();
  }

  private code(code: number): void {
    this.codes[this.count++] = code;
    if (this.count === 8) this.flush();
  }

  private flush(): void {
    const literalBytes = this.literalCount * 8;
    this.out.ensure(8 + literalBytes);
    this.out.putBytes(this.codes);
    this.out.putBytes(this.literals.subarray(0, literalBytes));
    this.count = 0;
    this.literalCount = 0;
  }
}

interface CaseContext {
  dates: DateFormatter;
  newline: string | undefined;
  seenRecode: string | undefined;
  scratch: Buffer;
  truncated: number;
}

function numericValue(
  variable: SavVariable,
  row: ExportRow,
  context: CaseContext,
  seen?: ReadonlySet<string>,
) {
  const { column } = variable;
  let value = row.values[column.key];
  if (isEmptyValue(value) && column.kind === 'question' && seen?.has(column.key)) value = context.seenRecode;
  if (column.type === 'date') {
    const ms = toEpochMs(value);
    return ms === undefined ? undefined : (ms + context.dates.offsetMs(ms)) / 1000 + GREGORIAN_EPOCH_S;
  }
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return undefined;
}

function stringValue(
  variable: SavVariable,
  row: ExportRow,
  context: CaseContext,
  seen?: ReadonlySet<string>,
) {
  const { column } = variable;
  const value = row.values[column.key];
  if (isEmptyValue(value))
    return column.kind === 'question' && seen?.has(column.key) ? (context.seenRecode ?? '') : '';
  const text = Array.isArray(value)
    ? value.join(',')
    : value instanceof Date
      ? value.toISOString()
      : String(value);
  return replaceNewlines(text, context.newline);
}

function putCase(
  cases: CompressedCases,
  variables: readonly SavVariable[],
  row: ExportRow,
  context: CaseContext,
  seen?: ReadonlySet<string>,
): void {
  for (const variable of variables) {
    if (variable.width === 0) {
      cases.number(numericValue(variable, row, context, seen));
      continue;
    }
    const text = stringValue(variable, row, context, seen);
    const { scratch } = context;
    const { width, segments } = variable;
    const written = text === '' ? 0 : scratch.write(text, 0, width, 'utf8');
    if (written > width - 4 && written < Buffer.byteLength(text, 'utf8')) context.truncated++;
    scratch.fill(0x20, written, width + 8);
    if (segments.length === 1) {
      cases.string(scratch, (segments[0] as SavSegment).elements * 8, written);
      continue;
    }
    // A very long string: segment i holds bytes [255 i, 255 i + 255) of the value, space-padded.
    const segment = scratch.subarray(width + 8);
    for (const [i, { elements }] of segments.entries()) {
      const used = Math.max(0, Math.min(255, width - i * 255));
      scratch.copy(segment, 0, i * 255, i * 255 + used);
      segment.fill(0x20, used, elements * 8);
      cases.string(segment, elements * 8, used);
    }
  }
}

/** Writes the .sav to `out` (header case count -1); does not end `out`. */
export async function writeSpss(
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions = {},
  created: Date = new Date(),
): Promise<WriteResult> {
  const variables = buildDictionary(layout.columns);
  const settings = cellSettings(options);
  const output = new ByteOutput(out);
  await putDictionary(output, variables, created);
  const widest = Math.max(8, ...variables.map((v) => v.width));
  const context: CaseContext = {
    dates: settings.dates,
    newline: settings.newline,
    seenRecode: settings.seenRecode,
    scratch: Buffer.alloc(2 * (widest + 8) + 256),
    truncated: 0,
  };
  const cases = new CompressedCases(output);
  let count = 0;
  for await (const row of rows) {
    putCase(cases, variables, row, context, seenFields(row, settings));
    count++;
    if (output.waiting) await output.settle();
  }
  cases.finish();
  await output.flush();
  return { rows: count, truncatedValues: context.truncated };
}

/** Writes a .sav file at `path` and patches the case count into its header once every case is written. */
export async function writeSavFile(
  path: string,
  layout: ExportLayout,
  rows: ExportRows,
  options: FormatOptions = {},
): Promise<WriteResult> {
  const file = createWriteStream(path, { mode: 0o600 });
  // Listened to from the start: a path that cannot be opened rejects `written` and stops the writer.
  const written = finished(file);
  written.catch(() => undefined);
  let result: WriteResult;
  try {
    result = await writeSpss(layout, rows, file, options);
  } catch (error) {
    file.destroy();
    throw error;
  }
  file.end();
  await written;
  if (!file.closed) await once(file, 'close');
  const handle = await open(path, 'r+');
  try {
    const count = Buffer.alloc(4);
    count.writeInt32LE(result.rows);
    await handle.write(count, 0, 4, CASE_COUNT_OFFSET);
  } finally {
    await handle.close();
  }
  return result;
}
