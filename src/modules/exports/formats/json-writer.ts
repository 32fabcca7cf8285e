/**
 * json: `{"responses":[{responseId, values, labels, displayedFields, displayedValues}, ...]}` (COMPAT.md
 * "Response exports"), written element by element, never built in memory. ndjson: the same objects, one
 * per line. Empty values are left out of `values`, as in the real API; numbers stay JSON numbers (the
 * decimal comma does not apply) and dates are ISO 8601 in the requested zone.
 */
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
import { toEpochMs } from './dates.js';
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

/** The export's record of one response: only the layout's columns, in layout order. */
export function jsonResponse(
  columns: readonly ExportColumn[],
  row: ExportRow,
  settings: CellSettings,
): JsonResponse {
  const seen = seenFields(row, settings);
  const values: Record<string, unknown> = {};
  const labels: Record<string, string> = {};
  for (const column of columns) {
    const value = row.values[column.key];
    if (isEmptyValue(value)) {
      if (column.kind === 'question' && settings.seenRecode !== undefined && seen?.has(column.key)) {
        values[column.key] = settings.seenRecode;
      }
      continue;
    }
    const label = labelOf(column, row);
    if (label !== undefined) labels[column.key] = replaceNewlines(label, settings.newline);
    values[column.key] =
      settings.useLabels && label !== undefined ? labels[column.key] : jsonValue(column, value, settings);
  }
  return {
    responseId: row.responseId,
    values,
    labels,
    displayedFields: row.displayedFields ?? [],
    displayedValues: row.displayedValues ?? {},
  };
}

/** One response's JSON text; stored displayed fields and values are copied as they are (`displayedJson`). */
function responseJson(columns: readonly ExportColumn[], row: ExportRow, settings: CellSettings): string {
  const response = jsonResponse(columns, row, settings);
  const raw = row.displayedJson;
  if (raw === undefined) return JSON.stringify(response);
  const { responseId, values, labels } = response;
  return `{"responseId":${JSON.stringify(responseId)},"values":${JSON.stringify(values)},"labels":${JSON.stringify(labels)},"displayedFields":${raw.fields},"displayedValues":${raw.values}}`;
}

async function writeJsonLines(
  layout: ExportLayout,
  rows: ExportRows,
  out: Writable,
  options: FormatOptions,
  frame: { open: string; separator: string; close: string },
): Promise<WriteResult> {
  const settings = cellSettings(options);
  const output = new TextOutput(out);
  await output.write(frame.open);
  let count = 0;
  for await (const row of rows) {
    const text = responseJson(layout.columns, row, settings);
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
