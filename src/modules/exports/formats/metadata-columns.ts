/**
 * The fixed metadata columns of the real exports (../shared/fixtures/exports/README.md): the 17 columns
 * that open a csv/tsv export, and the V1..V10 columns and trailing location columns of csv2013. Keys are
 * the response `values` keys of COMPAT.md "Responses".
 */
import type { ExportColumn, ValueLabel, ValueType } from './export-layout.js';

/** Status codes and their texts, as the real .sav declares them. */
export const STATUS_LABELS: readonly ValueLabel[] = [
  { value: 0, label: 'IP Address' },
  { value: 1, label: 'Survey Preview' },
  { value: 2, label: 'Survey Test' },
  { value: 4, label: 'Imported' },
  { value: 8, label: 'Spam' },
  { value: 9, label: 'Survey Preview Spam' },
  { value: 12, label: 'Imported Spam' },
  { value: 16, label: 'Offline' },
  { value: 17, label: 'Offline Survey Preview' },
  { value: 32, label: 'EX' },
  { value: 40, label: 'EX Spam' },
  { value: 48, label: 'EX Offline' },
];

export const FINISHED_LABELS: readonly ValueLabel[] = [
  { value: 0, label: 'False' },
  { value: 1, label: 'True' },
];

type Spec = [name: string, text: string, key: string, type: ValueType, extra?: Partial<ExportColumn>];

function metadata([name, text, key, type, extra]: Spec): ExportColumn {
  return { key, name, text, importId: { ImportId: key }, kind: 'metadata', type, ...extra };
}

const CURRENT: readonly Spec[] = [
  ['StartDate', 'Start Date', 'startDate', 'date'],
  ['EndDate', 'End Date', 'endDate', 'date'],
  ['Status', 'Response Type', 'status', 'numeric', { valueLabels: STATUS_LABELS, decimals: 0 }],
  ['IPAddress', 'IP Address', 'ipAddress', 'string', { maxBytes: 45 }],
  ['Progress', 'Progress', 'progress', 'numeric', { decimals: 0 }],
  ['Duration (in seconds)', 'Duration (in seconds)', 'duration', 'numeric', { decimals: 0 }],
  ['Finished', 'Finished', 'finished', 'numeric', { valueLabels: FINISHED_LABELS, decimals: 0 }],
  ['RecordedDate', 'Recorded Date', 'recordedDate', 'date'],
  ['ResponseId', 'Response ID', '_recordId', 'string', { maxBytes: 50 }],
  ['RecipientLastName', 'Recipient Last Name', 'recipientLastName', 'string'],
  ['RecipientFirstName', 'Recipient First Name', 'recipientFirstName', 'string'],
  ['RecipientEmail', 'Recipient Email', 'recipientEmail', 'string'],
  ['ExternalReference', 'External Data Reference', 'externalDataReference', 'string'],
  ['LocationLatitude', 'Location Latitude', 'locationLatitude', 'numeric', { decimals: 6 }],
  ['LocationLongitude', 'Location Longitude', 'locationLongitude', 'numeric', { decimals: 6 }],
  ['DistributionChannel', 'Distribution Channel', 'distributionChannel', 'string'],
  ['UserLanguage', 'User Language', 'userLanguage', 'string', { maxBytes: 16 }],
];

/** Columns an anonymized survey drops entirely (the salami export). */
const IDENTIFYING = new Set([
  'ipAddress',
  'recipientLastName',
  'recipientFirstName',
  'recipientEmail',
  'externalDataReference',
  'locationLatitude',
  'locationLongitude',
]);

/** The 17 metadata columns that open a csv/tsv export, or the 10 kept for an anonymized survey. */
export function currentMetadataColumns(options: { anonymized?: boolean } = {}): ExportColumn[] {
  const columns = CURRENT.map(metadata);
  return options.anonymized ? columns.filter((column) => !IDENTIFYING.has(column.key)) : columns;
}

const LEGACY_HEAD: readonly Spec[] = [
  ['V1', 'ResponseID', '_recordId', 'string', { maxBytes: 50 }],
  ['V2', 'ResponseSet', 'responseSet', 'string'],
  ['V3', 'Name', 'recipientName', 'string'],
  ['V4', 'ExternalDataReference', 'externalDataReference', 'string'],
  ['V5', 'EmailAddress', 'recipientEmail', 'string'],
  ['V6', 'IPAddress', 'ipAddress', 'string', { maxBytes: 45 }],
  ['V7', 'Status', 'status', 'numeric', { valueLabels: STATUS_LABELS }],
  ['V8', 'StartDate', 'startDate', 'date'],
  ['V9', 'EndDate', 'endDate', 'date'],
  ['V10', 'Finished', 'finished', 'numeric', { valueLabels: FINISHED_LABELS }],
];

/**
 * What csv2013 writes in ResponseSet and Name when a response has none (the real files'); an import
 * reads these texts back as nothing, so they are not stored with every response.
 */
export const LEGACY_DEFAULTS: Readonly<Record<'responseSet' | 'recipientName', string>> = {
  responseSet: 'Default Response Set',
  recipientName: 'Anonymous',
};

const LEGACY_TAIL: readonly Spec[] = [
  ['LocationLatitude', 'LocationLatitude', 'locationLatitude', 'numeric'],
  ['LocationLongitude', 'LocationLongitude', 'locationLongitude', 'numeric'],
  ['LocationAccuracy', 'LocationAccuracy', 'locationAccuracy', 'numeric'],
];

/**
 * csv2013: V1..V10, then the caller's question columns (`Q1`, `Q2_1`, texts joined with `-`), then the
 * location columns. The writer adds the trailing empty column itself.
 */
export function legacyColumns(questions: readonly ExportColumn[]): ExportColumn[] {
  return [...LEGACY_HEAD.map(metadata), ...questions, ...LEGACY_TAIL.map(metadata)];
}
