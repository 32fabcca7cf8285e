/**
 * The .sav dictionary of an export layout: valid unique variable names (≤ 64 bytes) and their 8-byte short
 * names, string widths and very long string segments, formats, labels, measure levels. Every limit is in
 * UTF-8 bytes and cut on whole characters (PSPP "System File Format"; ../shared/notes/spss-sav.md).
 */
import type { ExportColumn, ValueLabel } from './export-layout.js';

export const DEFAULT_STRING_WIDTH = 2000; // the real platform's width for strings of unknown length
export const MAX_STRING_WIDTH = 32767;
const VLS_MIN_WIDTH = 256; // wider strings are split into segments
const VLS_CHUNK = 252; // segments = ceil(width / 252), each 255 wide but the last
const MAX_LONG_NAME = 64;
const MAX_VARIABLE_LABEL = 255;
const MAX_VALUE_LABEL = 120;
const RESERVED = new Set(['ALL', 'AND', 'BY', 'EQ', 'GE', 'GT', 'LE', 'LT', 'NE', 'NOT', 'OR', 'TO', 'WITH']);

export const FORMAT = { A: 1, F: 5, DATETIME: 22 } as const;
export const formatCode = (type: number, width: number, decimals: number) =>
  (type << 16) | (width << 8) | decimals;

export interface SavSegment {
  shortName: string;
  /** 0 numeric, else the string width of this segment (1..255). */
  width: number;
  /** 8-byte elements this segment takes in a case. */
  elements: number;
}

export interface SavVariable {
  column: ExportColumn;
  name: string;
  /** 0 numeric, else the string width in bytes. */
  width: number;
  segments: SavSegment[];
  label: string;
  format: number;
  valueLabels: readonly ValueLabel[];
  measure: 1 | 2 | 3; // nominal, ordinal, scale
  /** 1-based index of the variable's first record among all variable records (for value labels). */
  dictionaryIndex: number;
}

/** Cuts a string to at most `bytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, bytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= bytes) return text;
  const buffer = Buffer.alloc(bytes);
  const written = buffer.write(text, 0, bytes, 'utf8'); // writes whole characters only
  return buffer.toString('utf8', 0, written);
}

/** `Duration (in seconds)` → `Duration__in_seconds_` (the real platform's spelling), valid and ≤ 64 bytes. */
export function validVariableName(tag: string): string {
  let name = tag.replace(/[^\p{L}\p{N}_.@#$]/gu, '_').replace(/\.+$/, '');
  if (!/^[\p{L}@]/u.test(name)) name = `V${name}`;
  if (RESERVED.has(name.toUpperCase())) name = `${name}_`;
  return truncateUtf8(name, MAX_LONG_NAME).replace(/\.+$/, '');
}

function uniqueName(base: string, used: Set<string>): string {
  let name = base;
  for (let n = 2; used.has(name.toUpperCase()); n++) {
    const suffix = `_${n}`;
    name = truncateUtf8(base, MAX_LONG_NAME - suffix.length) + suffix;
  }
  used.add(name.toUpperCase());
  return name;
}

function segmentWidths(width: number): number[] {
  if (width < VLS_MIN_WIDTH) return [width];
  const count = Math.ceil(width / VLS_CHUNK);
  return Array.from({ length: count }, (_, i) => (i < count - 1 ? 255 : width - i * VLS_CHUNK));
}

/** Short names: upper-case ASCII of the long name when free; segments of one variable share a 5-char stem. */
function shortNames(name: string, segmentCount: number, used: Set<string>, serial: () => number): string[] {
  const ascii = name.toUpperCase().replace(/[^A-Z0-9_@#$]/g, '');
  const stemLength = segmentCount > 1 ? 5 : 8;
  const names = (stem: string) =>
    Array.from({ length: segmentCount }, (_, i) => (i === 0 ? stem : `${stem}${i - 1}`));
  const free = (candidates: string[]) =>
    candidates.every((c) => !used.has(c) && !RESERVED.has(c) && /^[A-Z@]/.test(c) && c.length <= 8);
  let candidates = names(ascii.slice(0, stemLength));
  while (!free(candidates))
    candidates = names(`V${serial().toString(36).toUpperCase()}`.slice(0, stemLength));
  for (const candidate of candidates) used.add(candidate);
  return candidates;
}

function variableFormat(column: ExportColumn, width: number): number {
  if (column.type === 'date') return formatCode(FORMAT.DATETIME, 20, 0);
  if (width > 0) return formatCode(FORMAT.A, Math.min(width, 255), 0);
  const decimals = column.decimals ?? (column.valueLabels ? 0 : 2);
  return formatCode(FORMAT.F, 40, Math.min(decimals, 16));
}

export function stringWidth(column: ExportColumn): number {
  if (column.type !== 'string') return 0;
  const width = column.maxBytes ?? DEFAULT_STRING_WIDTH;
  return Math.min(Math.max(Math.ceil(width), 1), MAX_STRING_WIDTH);
}

/** The dictionary of a layout, in column order. */
export function buildDictionary(columns: readonly ExportColumn[]): SavVariable[] {
  const usedNames = new Set<string>();
  const usedShort = new Set<string>();
  let serialNumber = 0;
  const serial = () => ++serialNumber;
  let index = 1;
  return columns.map((column) => {
    const width = stringWidth(column);
    const name = uniqueName(validVariableName(column.name), usedNames);
    const widths = segmentWidths(width);
    const shorts = shortNames(name, widths.length, usedShort, serial);
    const segments = widths.map((w, i) => ({
      shortName: shorts[i] as string,
      width: w,
      elements: w === 0 ? 1 : Math.ceil(w / 8),
    }));
    const variable: SavVariable = {
      column,
      name,
      width,
      segments,
      label: truncateUtf8(column.spssLabel ?? column.text, MAX_VARIABLE_LABEL),
      format: variableFormat(column, width),
      valueLabels:
        width === 0 && column.type === 'numeric'
          ? (column.valueLabels ?? []).map((v) => ({
              value: v.value,
              label: truncateUtf8(v.label, MAX_VALUE_LABEL),
            }))
          : [],
      measure: width > 0 || column.valueLabels ? 1 : 3,
      dictionaryIndex: index,
    };
    index += segments.reduce((sum, segment) => sum + segment.elements, 0);
    return variable;
  });
}

/** 8-byte elements of one case: the header's nominal case size. */
export const caseElements = (variables: readonly SavVariable[]) =>
  variables.reduce((sum, v) => sum + v.segments.reduce((s, segment) => s + segment.elements, 0), 0);
