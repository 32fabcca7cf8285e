/**
 * What every format writer takes: a column layout (known before the first row) and an async iterable of
 * rows. Nothing here knows how responses are stored; the export job builds the layout from the survey
 * definition and streams rows from a database cursor (issue 6, COMPAT.md "Response exports").
 */

import type { ImportId } from '../../surveys/definition/question-columns.js';

/** Where a column comes from: the fixed response metadata, a question, or an embedded-data field. */
export type ColumnKind = 'metadata' | 'question' | 'embedded';

/** How a column's values are typed: drives number formatting, date formatting and the .sav variable type. */
export type ValueType = 'numeric' | 'string' | 'date';

// The third CSV header row; a question column's comes from the survey definition.
export type { ImportId };

/** A recode and its answer text: Status 0 = IP Address, Finished 1 = True, Likert 11 = Strongly agree. */
export interface ValueLabel {
  value: number;
  label: string;
}

export interface ExportColumn {
  /** Key of the value in a row (`QID4_2`, `startDate`, `_recordId`); also the XML element name. */
  key: string;
  /** Header row 1, the export tag (`Q35_1`, `StartDate`, `Duration (in seconds)`); the .sav name comes from it. */
  name: string;
  /** Header row 2, the question or field text; the .sav variable label. */
  text: string;
  /** Header row 3 (csv, tsv). */
  importId: ImportId;
  kind: ColumnKind;
  type: ValueType;
  /** Answer texts of recodes: used for labels when a row has none, and written as .sav value labels. */
  valueLabels?: readonly ValueLabel[];
  /** .sav variable label when it differs from `text` (multi-select breakout: `"<question> <choice>"`). */
  spssLabel?: string;
  /**
   * String columns: the longest value in UTF-8 bytes, from the caller's pre-pass over the data (for
   * example `max(length(value))` in SQL). Sets the .sav string width; when absent the writer uses
   * 2000, the real platform's width, and truncates longer values (counted in `truncatedValues`).
   */
  maxBytes?: number;
  /** Numeric columns: decimals of the .sav display format (default 0 with value labels, else 2). */
  decimals?: number;
}

export interface ExportLayout {
  columns: readonly ExportColumn[];
}

/** A value as the store hands it over; arrays are multi-answer values written joined by `,`. */
export type ExportValue = string | number | boolean | Date | null | undefined | readonly (string | number)[];

export interface ExportRow {
  responseId: string;
  /** Column key to value: recodes, texts, numbers, dates (Date, ISO string or epoch milliseconds). */
  values: Readonly<Record<string, ExportValue>>;
  /** Column key to answer text (`QID1` → `Strongly agree`). */
  labels?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Keys of the fields shown to the respondent: a shown field left empty gets `seenUnansweredRecode`. */
  displayedFields?: readonly string[];
  displayedValues?: Readonly<Record<string, unknown>>;
  /**
   * `displayedFields` and `displayedValues` as stored JSON text, when the source has it: the json and
   * ndjson writers copy it instead of parsing and re-serialising it (measured at a tenth of a json export).
   */
  displayedJson?: { fields: string; values: string };
  /**
   * The json members `"values":{…},"labels":{…}` stored with the response when it was recorded, when
   * the source has them for this export's layout and options (json-writer.ts, decision 0022): the json
   * and ndjson writers copy them instead of writing them from `values` and `labels`.
   */
  storedJson?: string;
}

export type ExportRows = AsyncIterable<ExportRow> | Iterable<ExportRow>;

export interface FormatOptions {
  /** Answer texts instead of recodes (csv, csv2013, tsv, xml; in json/ndjson `values` hold the labels). */
  useLabels?: boolean;
  /** IANA zone for dates (`America/Denver`); UTC when absent, written `"timeZone":"Z"` in header row 3. */
  timeZone?: string;
  /** Written for a question the respondent saw (in `displayedFields`) but left empty. */
  seenUnansweredRecode?: number | string;
  /** `,` writes decimals with a comma (csv, csv2013, tsv, xml); json and .sav keep real numbers. */
  decimalSeparator?: '.' | ',';
  /** The v3 spelling of `decimalSeparator: ','`. */
  formatDecimalAsComma?: boolean;
  /** Replaces CR, LF and CRLF inside text values, in every format. */
  newlineReplacement?: string;
}

export interface WriteResult {
  rows: number;
  /** .sav only: values cut to the column's string width because `maxBytes` was too small or absent. */
  truncatedValues?: number;
}

export const EXPORT_FORMATS = ['csv', 'csv2013', 'tsv', 'json', 'ndjson', 'xml', 'spss'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** File extension and media type of each format's bare file; zipped files are `application/zip`. */
export const FORMAT_FILES: Readonly<Record<ExportFormat, { extension: string; contentType: string }>> = {
  csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  csv2013: { extension: 'csv', contentType: 'text/csv; charset=utf-8' },
  tsv: { extension: 'tsv', contentType: 'text/tab-separated-values; charset=utf-8' },
  json: { extension: 'json', contentType: 'application/json' },
  ndjson: { extension: 'ndjson', contentType: 'application/x-ndjson' },
  xml: { extension: 'xml', contentType: 'application/xml' },
  spss: { extension: 'sav', contentType: 'application/x-spss-sav' },
};
