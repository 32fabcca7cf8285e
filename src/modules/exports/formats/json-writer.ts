/**
 * json: `{"responses":[{responseId, values, labels, displayedFields, displayedValues}, ...]}` (COMPAT.md
 * "Response exports"), written element by element, never built in memory. ndjson: the same objects, one
 * per line. Empty values are left out of `values`, as in the real API; numbers stay JSON numbers (the
 * decimal comma does not apply) and dates are ISO 8601 in the requested zone.
 */
import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import {
  type CellSettings,
  cellSettings,
  isEmptyValue,
  labelOf,
  replaceNewlines,
  seenFields,
} from './cells.js';
import { TextOutput } from './chunked-output.js';
import { isUtcZone, toEpochMs } from './dates.js';
import type {
  ExportColumn,
  ExportLayout,
  ExportRow,
  ExportRows,
  ExportValue,
  FormatOptions,
  WriteResult,
} from './export-layout.js';

export interface JsonResponse {
  responseId: string;
  values: Record<string, unknown>;
  labels: Record<string, string>;
  displayedFields: readonly string[];
  displayedValues: Readonly<Record<string, unknown>>;
}

function jsonValue(column: ExportColumn, value: ExportValue, settings: CellSettings): unknown {
  if (column.type === 'date') {
    const ms = toEpochMs(value);
    if (ms !== undefined) return settings.dates.formatIso(ms);
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') return replaceNewlines(value, settings.newline);
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? replaceNewlines(item, settings.newline) : item));
  return value;
}

/** A column as the json writer writes it: its key's JSON text, compiled once per export. */
export interface JsonColumn {
  column: ExportColumn;
  /** `"QID1":` */
  prefix: string;
  /** The seen-but-unanswered recode's JSON text, for a question column when that option is on. */
  seenRecode: string | undefined;
}

/**
 * The layout's columns as the writer walks them, each key once (two columns of one key would write the
 * same value twice: the first is kept, where an object would have kept its place).
 */
function jsonColumns(columns: readonly ExportColumn[], settings: CellSettings): JsonColumn[] {
  const seenKeys = new Set<string>();
  const out: JsonColumn[] = [];
  for (const column of columns) {
    if (seenKeys.has(column.key)) continue;
    seenKeys.add(column.key);
    const recode = column.kind === 'question' ? settings.seenRecode : undefined;
    out.push({
      column,
      prefix: `${JSON.stringify(column.key)}:`,
      seenRecode: recode === undefined ? undefined : JSON.stringify(recode),
    });
  }
  return out;
}

/** The `"values":{…},"labels":{…}` members of one response, written member by member in layout order. */
function valueMembers(columns: readonly JsonColumn[], row: ExportRow, settings: CellSettings): string {
  const seen = seenFields(row, settings);
  let values = '';
  let labels = '';
  for (const { column, prefix, seenRecode } of columns) {
    const value = row.values[column.key];
    if (isEmptyValue(value)) {
      if (seenRecode !== undefined && seen?.has(column.key))
        values += `${values === '' ? '' : ','}${prefix}${seenRecode}`;
      continue;
    }
    let label = labelOf(column, row);
    if (label !== undefined) {
      label = replaceNewlines(label, settings.newline);
      labels += `${labels === '' ? '' : ','}${prefix}${JSON.stringify(label)}`;
    }
    const written = settings.useLabels && label !== undefined ? label : jsonValue(column, value, settings);
    values += `${values === '' ? '' : ','}${prefix}${JSON.stringify(written)}`;
  }
  return `"values":{${values}},"labels":{${labels}}`;
}

/**
 * One response's JSON text: the export's `values` and `labels` are never built as objects to be
 * serialised again (that took a json export more time than the rows' parsing). They are the members
 * stored with the response when it was recorded (`storedJson`, decision 0022) or else written here.
 * Stored displayed fields and values are copied as they are (`displayedJson`).
 */
function responseJson(columns: readonly JsonColumn[], row: ExportRow, settings: CellSettings): string {
  const members = row.storedJson ?? valueMembers(columns, row, settings);
  const raw = row.displayedJson;
  const fields = raw?.fields ?? JSON.stringify(row.displayedFields ?? []);
  const shown = raw?.values ?? JSON.stringify(row.displayedValues ?? {});
  return `{"responseId":${JSON.stringify(row.responseId)},${members},"displayedFields":${fields},"displayedValues":${shown}}`;
}

/**
 * What a response's stored json members are written on (decision 0022): the columns of its survey's
 * json export as the writer walks them, and a key that names what the members depend on (each column's
 * key, whether it is a date, its value labels) and the version of this writer's output. An export whose
 * layout has the same key, with the options the members were written with (storedJsonApplies), copies
 * them; any other writes the response's members from its values.
 */
export interface StoredJsonLayout {
  key: string;
  columns: readonly JsonColumn[];
}

/** Changes whenever valueMembers writes something else for the same row: older stored members then stop matching. */
const STORED_JSON_VERSION = 'json-1';

const STORED_JSON_SETTINGS = cellSettings({});

export function storedJsonLayout(columns: readonly ExportColumn[]): StoredJsonLayout {
  const walked = jsonColumns(columns, STORED_JSON_SETTINGS);
  const named = walked.map(({ column }) => [column.key, column.type === 'date', column.valueLabels ?? null]);
  const key = createHash('sha256')
    .update(JSON.stringify([STORED_JSON_VERSION, named]))
    .digest('base64url');
  return { key, columns: walked };
}

/** The json members of a response as it is recorded, for `responses.export_json`. */
export function storedJsonMembers(
  layout: StoredJsonLayout,
  values: Readonly<Record<string, ExportValue>>,
  labels: Readonly<Record<string, string | readonly string[] | undefined>>,
): string {
  return valueMembers(layout.columns, { responseId: '', values, labels }, STORED_JSON_SETTINGS);
}

/** Whether members stored under the export's layout are what it writes with these options. */
export function storedJsonApplies(options: FormatOptions): boolean {
  return (
    options.useLabels !== true &&
    options.seenUnansweredRecode === undefined &&
    options.newlineReplacement === undefined &&
    isUtcZone(options.timeZone)
  );
}

/** The export's record of one response, as the json writer writes it (tests and benchmarks read it). */
export function jsonResponse(
  columns: readonly ExportColumn[],
  row: ExportRow,
  settings: CellSettings,
): JsonResponse {
  return JSON.parse(responseJson(jsonColumns(columns, settings), row, settings)) as JsonResponse;
}

async function writeJsonLines(
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions,
  frame: { open: string; separator: string; close: string },
): Promise<WriteResult> {
  const settings = cellSettings(options);
  const columns = jsonColumns(layout.columns, settings);
  const output = new TextOutput(out);
  await output.write(frame.open);
  let count = 0;
  for await (const row of rows) {
    const text = responseJson(columns, row, settings);
    const waiting = output.write(count === 0 ? text : frame.separator + text);
    count++;
    if (waiting) await waiting;
  }
  await output.write(count === 0 ? frame.close.trimStart() : frame.close);
  await output.flush();
  return { rows: count };
}

export const writeJson = (
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions = {},
) => writeJsonLines(layout, rows, out, options, { open: '{"responses":[', separator: ',\n', close: ']}\n' });

export const writeNdjson = (
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions = {},
) => writeJsonLines(layout, rows, out, options, { open: '', separator: '\n', close: '\n' });
