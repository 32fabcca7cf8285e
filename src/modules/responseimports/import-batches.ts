/**
 * A response import's batch laid out for writing: each record of the file decoded (import-cells.ts) and its
 * response laid out on the survey (prepareResponses), or the reason it cannot be imported. Nothing is read
 * or written: the import's reader (import-reader.ts) lays batches out while the job writes the one before,
 * and the job lays one out again when the survey changed before its transaction.
 */
import type { Scope } from '../../db/scope.js';
import { type PreparedResponse, prepareResponses } from '../responses/record-response.js';
import type { SurveyForResponses } from '../surveys/survey-responses.service.js';
import { decodeRow } from './import-cells.js';
import type { HeaderMatch } from './import-columns.js';
import type { ImportRecord } from './import-file.js';
import type { ImportPayload } from './response-imports.service.js';

/** One row of a prepared batch: its reason to fail, or the response laid out for it. */
export type PreparedRow =
  | { row: number; reason: string }
  | { row: number; fileId?: string; response: PreparedResponse };

export interface PreparedBatch {
  /** The survey the batch was laid out on. */
  survey: SurveyForResponses;
  /** The file's records, kept to prepare them again should the survey change before they are written. */
  records: readonly ImportRecord[];
  rows: PreparedRow[];
  /** When the batch is recorded: one instant for the whole batch. */
  now: Date;
}

/**
 * Records decoded and laid out on `survey`. A response keeps the file's id for now; the job, which sees
 * which ids are in use, decides.
 */
export function prepareRows(
  scope: Scope,
  survey: SurveyForResponses,
  payload: Pick<ImportPayload, 'surveyId' | 'decimalSeparator'>,
  header: HeaderMatch,
  records: readonly ImportRecord[],
  now: Date,
): PreparedRow[] {
  const rows: PreparedRow[] = [];
  for (const { row, cells } of records) {
    const decoded = decodeRow(survey, header.columns, header.width, cells, payload);
    if ('reason' in decoded) {
      rows.push({ row, reason: decoded.reason });
      continue;
    }
    // The decoded row is this batch's own: completed in place, not copied.
    const fileId = decoded.responseId;
    const input = Object.assign(decoded.input, fileId ? { responseId: fileId } : {}, {
      surveyId: payload.surveyId,
      now,
      emitEvent: false,
    });
    const [response] = prepareResponses(scope, survey, [input]);
    rows.push({ row, fileId, response: response as PreparedResponse });
  }
  return rows;
}
