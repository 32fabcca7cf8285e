/**
 * The entry of a response import's counting thread (import-thread.ts starts it for a file large enough,
 * decision 0018): it reads the whole file once, counts its responses and sends the count, or why the file
 * cannot be read. It loads only the file reader, so it starts quickly.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { countImportRecords, failureOf, type ImportFormat } from './import-file.js';

const port = parentPort as MessagePort;
const { path, format } = workerData as { path: string; format: ImportFormat };

countImportRecords(path, format).then(
  (rowsTotal) => port.postMessage({ kind: 'counted', rowsTotal }),
  (error: unknown) => port.postMessage(failureOf(error)),
);
