/**
 * The exports module's `.sav` pre-pass: the dictionary (with each string's width) is written before the
 * first case, so an spss export first asks the database for the longest value of each string column, in
 * UTF-8 bytes, over the same responses the export streams: one aggregate query, one `max` per string
 * column's key. `values` is JSON text on both engines. Each length is that of the text the `.sav` writer
 * writes (exports/formats/sav-writer.ts `stringValue`): strings as they are, numbers and booleans as their
 * JSON text (what `String(value)` gives), arrays joined by `,`, newlines replaced when the export asks.
 * One lookup per key (json_extract / `->`) was measured 2-4x faster than `json_each` over every key.
 */
import { dialectOf } from '../../db/dialect/index.js';
import type { Scope } from '../../db/scope.js';
import type { Queryable } from '../../deps.js';
import { filteredResponses, type ResponseExportFilter } from './responses.store.js';

export interface StringWidthQuery {
  filter: ResponseExportFilter;
  /** The first N responses in recorded order, as the export takes them. */
  limit?: number;
  /** Value keys of the layout's string columns: only these are measured. */
  keys: readonly string[];
  newlineReplacement?: string;
}

/** Value key → the longest written value in UTF-8 bytes (0 when no response has it). */
export async function findStringWidths(
  db: Queryable,
  scope: Scope,
  query: StringWidthQuery,
): Promise<Map<string, number>> {
  const keys = [...new Set(query.keys)];
  if (keys.length === 0) return new Map();
  let responses = filteredResponses(db, scope, query.filter).select('values');
  if (query.limit !== undefined) responses = responses.orderBy('seq').limit(query.limit);
  const widths = await dialectOf(db).longestJsonValues(db, responses, keys, query.newlineReplacement);
  return new Map(keys.map((key, i) => [key, widths[i] ?? 0]));
}
