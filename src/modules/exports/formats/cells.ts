/**
 * Turns one column of one row into text, applying the options that belong to every text format:
 * labels or recodes, the time zone, the seen-but-unanswered recode, the decimal comma and the newline
 * replacement. One closure per column is built before the first row, so the per-row work is small.
 */
import { createDateFormatter, type DateFormatter, toEpochMs } from './dates.js';
import type { ExportColumn, ExportRow, ExportValue, FormatOptions, ValueLabel } from './export-layout.js';

export type CellText = (row: ExportRow, seen: ReadonlySet<string> | undefined) => string;

export interface CellSettings {
  useLabels: boolean;
  dates: DateFormatter;
  seenRecode: string | undefined;
  decimalComma: boolean;
  newline: string | undefined;
}

export function cellSettings(options: FormatOptions): CellSettings {
  const recode = options.seenUnansweredRecode;
  return {
    useLabels: options.useLabels === true,
    dates: createDateFormatter(options.timeZone),
    seenRecode: recode === undefined ? undefined : String(recode),
    decimalComma: options.formatDecimalAsComma === true || options.decimalSeparator === ',',
    newline: options.newlineReplacement,
  };
}

/** Row key set for the seen-but-unanswered recode; only built when that option is on. */
export function seenFields(row: ExportRow, settings: CellSettings): ReadonlySet<string> | undefined {
  if (settings.seenRecode === undefined || row.displayedFields === undefined) return undefined;
  return new Set(row.displayedFields);
}

export function isEmptyValue(value: ExportValue): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

const NEWLINES = /\r\n|\r|\n/g;

export function replaceNewlines(text: string, replacement: string | undefined): string {
  if (replacement === undefined) return text;
  return text.replace(NEWLINES, replacement);
}

/** Shortest text that reads back as the same double (the real platform prints more digits; see docs). */
export function numberText(value: number, decimalComma: boolean): string {
  const text = String(value);
  return decimalComma ? text.replace('.', ',') : text;
}

const labelMaps = new WeakMap<readonly ValueLabel[], Map<number, string>>();

/** The label of a recode among the column's value labels (a map built once per column). */
function valueLabel(labels: readonly ValueLabel[], recode: number): string | undefined {
  let map = labelMaps.get(labels);
  if (map === undefined) {
    map = new Map(labels.map((entry) => [entry.value, entry.label]));
    labelMaps.set(labels, map);
  }
  return map.get(recode);
}

/** The label of a value from the row's labels, else from the column's value labels. */
export function labelOf(column: ExportColumn, row: ExportRow): string | undefined {
  const label = row.labels?.[column.key];
  if (typeof label === 'string') return label;
  if (Array.isArray(label)) return label.join(',');
  const value = row.values[column.key];
  if (column.valueLabels === undefined || value === null || value === undefined) return undefined;
  return valueLabel(column.valueLabels, Number(value));
}

function valueText(column: ExportColumn, value: ExportValue, settings: CellSettings): string {
  if (column.type === 'date') {
    const ms = toEpochMs(value);
    if (ms !== undefined) return settings.dates.format(ms);
  }
  if (typeof value === 'number') return numberText(value, settings.decimalComma);
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.join(',');
  if (value instanceof Date) return settings.dates.format(value.getTime());
  const text = String(value);
  if (column.type === 'numeric' && settings.decimalComma && /^-?\d+\.\d+$/.test(text))
    return text.replace('.', ',');
  return text;
}

export function cellText(column: ExportColumn, settings: CellSettings): CellText {
  const { key } = column;
  const recodeSeen = column.kind === 'question' ? settings.seenRecode : undefined;
  return (row, seen) => {
    const value = row.values[key];
    if (isEmptyValue(value)) return recodeSeen !== undefined && seen?.has(key) ? recodeSeen : '';
    const label = settings.useLabels ? labelOf(column, row) : undefined;
    const text = label ?? valueText(column, value, settings);
    return settings.newline === undefined ? text : replaceNewlines(text, settings.newline);
  };
}
