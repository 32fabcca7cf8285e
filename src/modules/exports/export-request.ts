/**
 * The options of an export request (both spellings of the API take the same), checked before anything
 * is queued: each bad value is a 400 naming its field. Checks that need the survey (column selection,
 * the continuation token) are the service's.
 */
import { isoSeconds } from '../../clock.js';
import { ApiError } from '../../http/errors.js';
import type { ColumnSelection } from './export-selection.js';
import { EXPORT_FORMATS, type ExportFormat, type FormatOptions } from './formats/export-layout.js';

export interface ExportOptionsRequest extends ColumnSelection {
  format: string;
  useLabels?: boolean;
  startDate?: string;
  endDate?: string;
  limit?: number;
  compress?: boolean;
  timeZone?: string;
  seenUnansweredRecode?: number | string;
  formatDecimalAsComma?: boolean;
  decimalSeparator?: string;
  newlineReplacement?: string;
  exportResponsesInProgress?: boolean;
  allowContinuation?: boolean;
  continuationToken?: string;
  responseIds?: string[];
}

export interface CheckedRequest {
  format: ExportFormat;
  from?: string;
  to?: string;
  options: FormatOptions;
}

function checkFormat(format: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw ApiError.invalid('format', `must be one of ${EXPORT_FORMATS.join(', ')}`);
  return format as ExportFormat;
}

function checkDate(field: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw ApiError.invalid(field, 'must be an ISO 8601 date and time');
  return isoSeconds(date);
}

function checkTimeZone(timeZone: string | undefined): string | undefined {
  if (timeZone === undefined) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw ApiError.invalid('timeZone', 'must be an IANA time zone (America/Denver)');
  }
  return timeZone;
}

/** `decimalSeparator` is the other spelling of `formatDecimalAsComma`; the two must not disagree. */
function checkDecimalComma(request: ExportOptionsRequest): boolean | undefined {
  const { decimalSeparator: separator, formatDecimalAsComma: comma } = request;
  if (separator === undefined) return comma;
  if (separator !== '.' && separator !== ',')
    throw ApiError.invalid('decimalSeparator', 'must be "." or ","');
  if (comma !== undefined && comma !== (separator === ','))
    throw ApiError.invalid('decimalSeparator', 'contradicts formatDecimalAsComma');
  return separator === ',';
}

/**
 * Continuation follows recorded order: a continued export takes no dates (the token says where it
 * starts), and an export that offers a token takes no endDate (what it leaves out before its last
 * response would never come). Responses in progress are not in recorded order at all.
 */
function checkContinuation(request: ExportOptionsRequest): void {
  const continues = request.continuationToken !== undefined;
  if (continues && (request.startDate !== undefined || request.endDate !== undefined))
    throw ApiError.invalid('continuationToken', 'cannot be combined with startDate or endDate');
  if (request.allowContinuation && request.endDate !== undefined)
    throw ApiError.invalid('allowContinuation', 'cannot be combined with endDate');
  // What a list leaves out before the token's position would never come either.
  if (request.responseIds !== undefined && (continues || request.allowContinuation))
    throw ApiError.invalid('responseIds', 'cannot be combined with allowContinuation or continuationToken');
  if (request.exportResponsesInProgress && (continues || request.allowContinuation))
    throw ApiError.invalid(
      'exportResponsesInProgress',
      'cannot be combined with allowContinuation or continuationToken',
    );
}

export function checkExportRequest(request: ExportOptionsRequest): CheckedRequest {
  const format = checkFormat(request.format);
  const from = checkDate('startDate', request.startDate);
  const to = checkDate('endDate', request.endDate);
  const timeZone = checkTimeZone(request.timeZone);
  const comma = checkDecimalComma(request);
  checkContinuation(request);
  const { useLabels, seenUnansweredRecode, newlineReplacement } = request;
  const options: FormatOptions = {
    ...(useLabels !== undefined ? { useLabels } : {}),
    ...(timeZone !== undefined ? { timeZone } : {}),
    ...(seenUnansweredRecode !== undefined ? { seenUnansweredRecode } : {}),
    ...(comma !== undefined ? { formatDecimalAsComma: comma } : {}),
    ...(newlineReplacement !== undefined ? { newlineReplacement } : {}),
  };
  return { format, ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}), options };
}
