/**
 * The reading side of a response import (decision 0017): it reads the file and lays out one batch of
 * records at a time (import-batches.ts), each when the job asks for it, with the instant and survey the
 * job gives, and hands it over. The file's responses are counted elsewhere, meanwhile (decision 0018). It
 * reads and writes no database. It runs on a thread of its own beside SQLite, which works on the event
 * loop's thread, and on the event loop beside PostgreSQL, which works in its own process (import-thread.ts).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Scope } from '../../db/scope.js';
import type { QsfDocument } from '../surveys/definition/qsf.js';
import {
  type PortableSurvey,
  type SurveyForResponses,
  surveyFromPortable,
} from '../surveys/survey-responses.service.js';
import { type PreparedRow, prepareRows } from './import-batches.js';
import {
  failureOf,
  type ImportFormat,
  type ImportRecord,
  type ReadFailure,
  readImportRecords,
} from './import-file.js';
import { matchFileHeader } from './import-header.js';
import type { ImportPayload } from './response-imports.service.js';

export interface ImportReaderData {
  /** The file, a local copy. */
  path: string;
  format: ImportFormat;
  payload: Pick<ImportPayload, 'surveyId' | 'decimalSeparator'>;
  scope: Scope;
  /**
   * The survey's definition and the file's header rows, as the job read and matched them when it started:
   * the reader matches them again (a match holds date zones, which a thread cannot be sent).
   */
  doc: QsfDocument;
  headerRows: string[][];
  /** Rows already imported (a restarted job): skipped. */
  resumeAfter: number;
  batchRows: number;
}

/** The job asks for the next batch: recorded at `now`, laid out on `survey`, sent when its version moved. */
export interface BatchRequest {
  now: Date;
  survey?: PortableSurvey;
}

export type ReaderMessage =
  | { kind: 'batch'; records: ImportRecord[]; rows: PreparedRow[] }
  | { kind: 'end' }
  | ReadFailure;

/** How the reader talks to the job: the next request (undefined: stop), and a message to it. */
export interface ReaderChannel {
  request(): Promise<BatchRequest | undefined>;
  send(message: ReaderMessage): void;
}

/** The job's requests as they arrive, to the reader as it asks: one waits for the other, in order. */
export function requestQueue<T>(): { deliver(request: T): void; take(): Promise<T> } {
  const waitingRequests: T[] = [];
  let waitingReader: ((request: T) => void) | undefined;
  return {
    deliver(request) {
      const reader = waitingReader;
      waitingReader = undefined;
      if (reader) reader(request);
      else waitingRequests.push(request);
    },
    take() {
      if (waitingRequests.length > 0) return Promise.resolve(waitingRequests.shift() as T);
      return new Promise((resolve) => {
        waitingReader = resolve;
      });
    },
  };
}

/**
 * Rows laid out per turn of the event loop, so that what else runs there (the batch being written, the
 * count) goes on. On a thread of its own nothing else runs: the reader lays a batch out in one go.
 */
const PREPARE_SLICE = 5;

/**
 * Reads the file and hands over its batches, each when asked; a failure is sent, not thrown. `shared`:
 * the reader runs on the event loop, beside the job, and gives it turns while it lays a batch out.
 */
export async function readBatches(
  data: ImportReaderData,
  channel: ReaderChannel,
  shared: boolean,
): Promise<void> {
  try {
    await read(data, channel, shared ? PREPARE_SLICE : data.batchRows);
  } catch (error) {
    channel.send(failureOf(error));
  }
}

async function read(data: ImportReaderData, channel: ReaderChannel, slice: number): Promise<void> {
  const { path, format, payload, scope } = data;
  const header = matchFileHeader(data.doc, data.headerRows, format, payload.surveyId);
  let survey: SurveyForResponses | undefined;
  let records: ImportRecord[] = [];
  /** Lays out and hands over the records in hand, when asked; false when the job has stopped. */
  const handOver = async (): Promise<boolean> => {
    const request = await channel.request();
    if (!request) return false;
    if (request.survey) survey = surveyFromPortable(request.survey);
    if (!survey) throw new Error('the job asked for a batch without giving its survey');
    const rows: PreparedRow[] = [];
    for (let i = 0; i < records.length; i += slice) {
      if (i > 0) await nextTurn();
      const some = records.slice(i, i + slice);
      rows.push(...prepareRows(scope, survey, payload, header, some, request.now));
    }
    channel.send({ kind: 'batch', records, rows });
    records = [];
    return true;
  };
  for await (const record of readImportRecords(path, format)) {
    if (record.row <= data.resumeAfter) continue;
    records.push(record);
    if (records.length >= data.batchRows && !(await handOver())) return;
  }
  if (records.length > 0 && !(await handOver())) return;
  channel.send({ kind: 'end' });
}
