import { CsvError, parse } from 'csv-parse/sync';
import { ApiError } from '../../http/errors.js';
import { MAX_UPDATES, type UpdateRequest } from './update-responses.service.js';

/** The longest CSV record taken, in bytes. */
const MAX_RECORD_BYTES = 1024 * 1024;

/**
 * The updates of a CSV file (docs/surveys.md "Updating many responses"): a header row naming a
 * `responseId` column (any case) and the embedded data fields, then a response a row. An empty cell
 * leaves that field alone. A file that cannot be read, or a row without a response id, is refused whole
 * (400 naming `file` and the row), before anything is queued.
 */
export function updatesOfCsv(text: string): UpdateRequest['updates'] {
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
  } catch (error) {
    if (error instanceof CsvError) throw ApiError.invalid('file', `cannot be read as CSV: ${error.message}`);
    throw error;
  }
  const [header, ...rows] = records;
  const names = (header ?? []).map((name) => name.trim());
  const idColumn = names.findIndex((name) => name.toLowerCase() === 'responseid');
  if (idColumn < 0) throw ApiError.invalid('file', 'must have a header row with a responseId column');
  names.forEach((name, i) => {
    if (name === '') throw ApiError.invalid('file', `header column ${i + 1} has no name`);
    if (names.indexOf(name) !== i) throw ApiError.invalid('file', `header names ${name} twice`);
  });
  if (rows.length > MAX_UPDATES) throw ApiError.invalid('file', `must hold at most ${MAX_UPDATES} rows`);
  return rows.map((cells, i) => {
    const responseId = cells[idColumn]?.trim() ?? '';
    if (responseId === '') throw ApiError.invalid('file', `row ${i + 2} has no responseId`);
    const embeddedData: Record<string, string> = {};
    cells.forEach((cell, column) => {
      if (column !== idColumn && cell !== '') embeddedData[names[column] as string] = cell;
    });
    return { responseId, embeddedData };
  });
}
