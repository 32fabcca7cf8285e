/**
 * The entry of a response import's thread (import-thread.ts starts it beside SQLite; decision 0017): the
 * reader (import-reader.ts) with the job at the other end of the thread's port.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type BatchRequest, type ImportReaderData, readBatches, requestQueue } from './import-reader.js';

const port = parentPort as MessagePort;
const requests = requestQueue<BatchRequest>();
port.on('message', requests.deliver);

// The job ends the thread (terminate) when it is done with it: the reader never needs to stop itself.
void readBatches(
  workerData as ImportReaderData,
  { request: requests.take, send: (message) => port.postMessage(message) },
  false,
);
