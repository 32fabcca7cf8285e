import type { Readable } from 'node:stream';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import {
  type CsvDialect,
  chain,
  openImportFile,
  readCsvRecords,
  readFileStart,
  UnreadableFileError,
} from '../../files/import-file.js';
import { CONTACT_LIMITS } from './contact-fields.js';
import { EMBEDDED_KEY_PATTERN } from './contacts.schemas.js';

/**
 * Contact import files, read as streams: a file of a million contacts never sits whole in memory.
 * CSV: a header row, then one contact a row. JSON: an array of contact objects, or `{"contacts": [...]}`.
 */
export type ImportFormat = 'csv' | 'json';

/** The file as a whole cannot be read: the import is refused before anything is written. */
export class MalformedImportError extends Error {}

/** One contact of a file, before its fields are checked: CSV columns come with their embedded data apart. */
export interface ImportRecord {
  /** 1-based position among the file's contacts (a CSV header is not counted). */
  row: number;
  fields: Record<string, unknown>;
  /** CSV only: the columns that are not contact fields, as embedded data. */
  embedded?: Record<string, string>;
}

/** CSV header names (case, spaces, `_` and `-` ignored) that name contact fields; the rest is embedded data. */
const CSV_FIELDS: Record<string, string> = {
  firstname: 'firstName',
  lastname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  phone: 'phone',
  phonenumber: 'phone',
  extref: 'extRef',
  externaldatareference: 'extRef',
  externalreference: 'extRef',
  language: 'language',
  unsubscribed: 'unsubscribed',
};

const EMBEDDED_KEY = new RegExp(EMBEDDED_KEY_PATTERN);

/**
 * Comma-separated, one contact a row of the header's length; a record is far under 1 MiB. Read 32 KiB at a
 * time (about 400 contacts): the job writes a batch of 1,000 while the rest of a chunk's records wait, and
 * the 3,000 of a 256 KiB chunk outlived young-heap collections, filling the old heap (issue 20: peak RSS).
 */
const CONTACT_CSV: CsvDialect = { maxRecordBytes: 1024 * 1024, chunkBytes: 32 * 1024 };

/**
 * Nesting a contact never needs (contact → embeddedData → value is three levels): deeper is not a contact
 * file, and refusing it early keeps recursive code (JSON.stringify) away from a 5,000-deep array.
 */
export const MAX_CONTACT_DEPTH = 8;

/** Reads the whole file once, as the import will; throws MalformedImportError naming the problem. */
export async function checkImportFile(path: string, format: ImportFormat): Promise<number> {
  let rows = 0;
  for await (const _record of readImportRecords(path, format)) rows++;
  if (rows === 0) throw new MalformedImportError('The file holds no contacts.');
  return rows;
}

/** The contacts of a file, one at a time. `onBytes` hears how far into the file reading has come. */
export async function* readImportRecords(
  path: string,
  format: ImportFormat,
  onBytes?: (bytesRead: number) => void,
): AsyncGenerator<ImportRecord> {
  if (format === 'csv') {
    yield* readCsv(path, onBytes);
    return;
  }
  const shape = await jsonShape(path);
  const { source, piped } = openImportFile(path, onBytes);
  try {
    yield* readJson(source, shape, piped);
  } finally {
    source.destroy();
  }
}

async function* readCsv(path: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<ImportRecord> {
  let header: ReturnType<typeof csvHeader> | undefined;
  let row = 0;
  try {
    for await (const values of readCsvRecords(path, CONTACT_CSV, onBytes)) {
      if (!header) {
        header = csvHeader(values);
        continue;
      }
      row++;
      yield csvRecord(row, header, values);
    }
  } catch (error) {
    throw asMalformed(error);
  }
  if (!header) throw new MalformedImportError('The file is empty: a CSV import needs a header row.');
}

function csvHeader(names: string[]): { field: string | undefined; name: string }[] {
  const seen = new Set<string>();
  const header = names.map((raw, index) => {
    const name = raw.trim();
    if (name === '') throw new MalformedImportError(`Line 1: column ${index + 1} has no name.`);
    const field = CSV_FIELDS[name.toLowerCase().replace(/[\s_-]/g, '')];
    const key = field ?? name;
    if (seen.has(key)) throw new MalformedImportError(`Line 1: column ${name} appears twice.`);
    seen.add(key);
    if (!field && (name.length > CONTACT_LIMITS.embeddedKey || !EMBEDDED_KEY.test(name))) {
      throw new MalformedImportError(
        `Line 1: column name ${JSON.stringify(name)} is not a valid embedded data field.`,
      );
    }
    return { field, name };
  });
  if (!header.some((column) => column.field === 'email' || column.field === 'extRef')) {
    throw new MalformedImportError('Line 1: the header needs an email or an extRef column.');
  }
  if (header.filter((column) => !column.field).length > CONTACT_LIMITS.embeddedFields) {
    throw new MalformedImportError(
      `Line 1: more than ${CONTACT_LIMITS.embeddedFields} embedded data columns.`,
    );
  }
  return header;
}

function csvRecord(row: number, header: ReturnType<typeof csvHeader>, values: string[]): ImportRecord {
  const fields: Record<string, unknown> = {};
  const embedded: Record<string, string> = {};
  header.forEach((column, index) => {
    const value = (values[index] ?? '').trim();
    if (value === '') return; // an empty cell leaves the stored value alone
    if (column.field) fields[column.field] = value;
    else embedded[column.name] = value;
  });
  return { row, fields, embedded };
}

/** `[` starts an array of contacts, `{` an object whose `contacts` holds them. */
async function jsonShape(path: string): Promise<'array' | 'object'> {
  const start = await readFileStart(path);
  if (start.startsWith('[')) return 'array';
  if (start.startsWith('{')) return 'object';
  throw new MalformedImportError('A JSON import must be an array of contacts or an object with "contacts".');
}

/** Whether `value` nests arrays or objects more than `max` levels deep; iterative, so any depth is safe. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > max) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A JSON file's or body's contact as the import takes it: an object nested no deeper than a contact is. */
export function checkJsonContact(value: unknown, row: number): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new MalformedImportError(`Contact ${row} is not a JSON object.`);
  }
  if (nestedDeeperThan(value, MAX_CONTACT_DEPTH)) {
    throw new MalformedImportError(
      `Contact ${row} nests arrays or objects more than ${MAX_CONTACT_DEPTH} levels deep; a contact needs 3.`,
    );
  }
  return value as Record<string, unknown>;
}

async function* readJson(
  source: Readable,
  shape: 'array' | 'object',
  piped: () => void,
): AsyncGenerator<ImportRecord> {
  const elements =
    shape === 'object'
      ? chain(source, pick.withParserAsStream({ filter: 'contacts' }), streamArray.asStream())
      : chain(source, streamArray.withParserAsStream());
  piped();
  let row = 0;
  try {
    for await (const { value } of elements as AsyncIterable<{ value: unknown }>) {
      row++;
      yield { row, fields: checkJsonContact(value, row) };
    }
  } catch (error) {
    throw asMalformed(error);
  }
}

function asMalformed(error: unknown): Error {
  if (error instanceof MalformedImportError) return error;
  if (error instanceof UnreadableFileError) return new MalformedImportError(error.message);
  // stream-json's parser errors have no class of their own: their messages tell.
  if (/Parser|JSON|Unexpected|expected/i.test(String((error as Error).message))) {
    return new MalformedImportError(`The file cannot be read: ${(error as Error).message}`);
  }
  return error as Error;
}
