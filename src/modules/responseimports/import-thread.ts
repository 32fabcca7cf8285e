/**
 * The job's side of a response import's reader (import-reader.ts; decision 0017). The reader reads the
 * file and lays batches out; the job asks for a batch (`next`) with the instant it records the batch at
 * and the survey as its last transaction read it, and writes it while the reader lays out the next ones.
 * Where the reader runs is the engine's to say: beside SQLite, whose work runs on the event loop's thread,
 * on a thread of its own (otherwise the two take turns); beside PostgreSQL, which works in its own process,
 * on the event loop (a thread there only took CPU from the database on a 2-core machine). The file's
 * responses are counted here while the reader reads it too, where the job says (beside the reader, not
 * with it): the job asks for its first batches before it waits for the count, so they are laid out
 * meanwhile (decision 0018).
 */
import { threadId, type Worker } from 'node:worker_threads';
import { startWorkerThread, workerEntry } from '../../jobs/worker-thread.js';
import { portableSurvey, type SurveyForResponses } from '../surveys/survey-responses.service.js';
import type { PreparedBatch } from './import-batches.js';
import { countImportRecords, errorOf, type ReadFailure } from './import-file.js';
import {
  type BatchRequest,
  type ImportReaderData,
  type ReaderMessage,
  readBatches,
  requestQueue,
} from './import-reader.js';

export interface ImportReader {
  /** The thread the reader runs on (`threadId` of node:worker_threads). */
  readonly threadId: number;
  /**
   * How many responses the file holds, read whole once (beside the reader, which reads it again); rejects
   * when it cannot be read.
   */
  readonly rowsTotal: Promise<number>;
  /** The next batch, recorded at `now` and laid out on `survey`; undefined after the last. */
  next(now: Date, survey: SurveyForResponses): Promise<PreparedBatch | undefined>;
  /** Stops the reader (at the end of the job, or when it fails). */
  close(): Promise<void>;
}

/** Where the reader runs: a thread of its own, or the event loop. */
export type ReaderPlace = 'thread' | 'event loop';

/**
 * Where the reader of a file of `bytes` runs: on a thread of its own when the engine works on the event
 * loop (SQLite) and the file is at least `threadFromBytes`; otherwise on the event loop.
 */
export function readerPlace(worksOnEventLoop: boolean, bytes: number, threadFromBytes: number): ReaderPlace {
  return worksOnEventLoop && bytes >= threadFromBytes ? 'thread' : 'event loop';
}

/**
 * Where the file of `bytes` is counted (decision 0018): beside the reader, not with it. On the event loop
 * when the reader has a thread (the job's thread waits for the first batches anyway); else on a thread of
 * its own when the file is at least `threadFromBytes` (the event loop is busy laying batches out).
 */
export function countPlace(reader: ReaderPlace, bytes: number, threadFromBytes: number): ReaderPlace {
  return reader === 'thread' || bytes < threadFromBytes ? 'event loop' : 'thread';
}

interface Asked {
  now: Date;
  survey: SurveyForResponses;
  resolve(batch: PreparedBatch | undefined): void;
  reject(error: Error): void;
}

/** The far end of the reader: a thread, or the reader run here over a channel of plain calls. */
interface Far {
  threadId: number;
  ask(request: BatchRequest): void;
  stop(): Promise<void>;
}

/**
 * The reader of `data` in `place`, with the file counted in `countIn` (the job gives `countPlace`'s answer;
 * without, the count runs where the reader does, which lets the tests try both places of each).
 */
export function openImportReader(
  data: ImportReaderData,
  place: ReaderPlace,
  countIn: ReaderPlace = place,
): ImportReader {
  const asked: Asked[] = [];
  const counting = countIn === 'thread' ? countOnThread(data) : countOnEventLoop(data);
  const rowsTotal = counting.total;
  // Met by the job's first await; settled here so an early failure is never an unhandled rejection.
  rowsTotal.catch(() => undefined);
  let ended = false;
  let failure: Error | undefined;
  let closed = false;
  let sentVersion: number | undefined;

  const fail = (error: Error) => {
    if (closed || failure) return;
    failure = error;
    for (const request of asked.splice(0)) request.reject(error);
  };
  const hear = (message: ReaderMessage) => {
    if (message.kind === 'batch') {
      const request = asked.shift();
      if (!request) return fail(new Error("The import's reader sent a batch nobody asked for."));
      const { records, rows } = message;
      request.resolve({ survey: request.survey, records, rows, now: request.now });
    } else if (message.kind === 'end') {
      ended = true;
      for (const request of asked.splice(0)) request.resolve(undefined);
    } else fail(errorOf(message));
  };
  const far = place === 'thread' ? onThread(data, hear, fail) : onEventLoop(data, hear);

  return {
    threadId: far.threadId,
    rowsTotal,
    next(now, survey) {
      if (failure) return Promise.reject(failure);
      if (ended) return Promise.resolve(undefined);
      // The survey goes only when its version moved, in the form a thread can be sent.
      const changed = survey.version !== sentVersion;
      sentVersion = survey.version;
      far.ask(changed ? { now, survey: portableSurvey(survey) } : { now });
      return new Promise((resolve, reject) => asked.push({ now, survey, resolve, reject }));
    },
    async close() {
      closed = true;
      await Promise.all([far.stop(), counting.stop()]);
    },
  };
}

/** The count, and how to stop it (the job is done with the file); a stopped count settles, short. */
interface Counting {
  total: Promise<number>;
  stop(): Promise<void>;
}

function countOnEventLoop(data: ImportReaderData): Counting {
  const stopped = new AbortController();
  const total = countImportRecords(data.path, data.format, stopped.signal);
  return {
    total,
    stop: async () => {
      stopped.abort();
      await total.catch(() => undefined);
    },
  };
}

function countOnThread(data: ImportReaderData): Counting {
  const worker = startWorkerThread(workerEntry(import.meta.url, 'import-count-worker'), {
    path: data.path,
    format: data.format,
  });
  const total = new Promise<number>((resolve, reject) => {
    worker.on('message', (message: { kind: 'counted'; rowsTotal: number } | ReadFailure) =>
      message.kind === 'counted' ? resolve(message.rowsTotal) : reject(errorOf(message)),
    );
    worker.on('error', reject);
    // After the count (or its failure) this changes nothing; before it, the thread was stopped.
    worker.on('exit', (code) => reject(new Error(`The import's count thread stopped (exit code ${code}).`)));
  });
  return {
    total,
    stop: async () => {
      await worker.terminate();
    },
  };
}

/**
 * The reader thread's young generation, in MB (Node's default is smaller): laying out allocates a great
 * deal that dies young, and a larger young generation collects it less often and promotes less of it. A
 * 100k-row SQLite import: 11.7, 11.1, 10.1 s against 12.2, 11.9, 11.4 s with the default (decision 0018).
 */
const READER_YOUNG_GENERATION_MB = 64;

function onThread(
  data: ImportReaderData,
  hear: (message: ReaderMessage) => void,
  fail: (error: Error) => void,
): Far {
  const worker: Worker = startWorkerThread(workerEntry(import.meta.url, 'import-worker'), data, {
    maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB,
  });
  worker.on('message', hear);
  worker.on('error', (error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`The import's reader thread stopped (exit code ${code}).`)));
  return {
    threadId: worker.threadId,
    ask: (request) => worker.postMessage(request),
    stop: async () => {
      await worker.terminate();
    },
  };
}

function onEventLoop(data: ImportReaderData, hear: (message: ReaderMessage) => void): Far {
  const requests = requestQueue<BatchRequest | undefined>();
  const reading = readBatches(data, { request: requests.take, send: hear }, true);
  return {
    threadId,
    ask: requests.deliver,
    // A reader waiting for a request hears `undefined`, stops and closes the file.
    stop: async () => {
      requests.deliver(undefined);
      await reading;
    },
  };
}
