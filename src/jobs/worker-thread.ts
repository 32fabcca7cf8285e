/**
 * A job's worker thread (node:worker_threads), for work a job can do beside the event loop (a response
 * import lays its batches out on one, decision 0017). `entry` is the thread's module, beside its caller:
 * built, a `.js` file Node runs as it is; from the TypeScript sources (tests, benchmarks, `npm run dev`),
 * a `.ts` file that the thread loads through tsx, which a thread does not inherit from its parent on
 * Node 20.
 */
import { type ResourceLimits, Worker } from 'node:worker_threads';

/** The entry module `name` (without extension) beside `callerUrl` (the caller's `import.meta.url`). */
export function workerEntry(callerUrl: string, name: string): URL {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`./${name}${extension}`, callerUrl);
}

/** `resourceLimits`: the thread's heap, as node:worker_threads takes it (Node's defaults without). */
export function startWorkerThread(entry: URL, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, resourceLimits });
  // tsx as this package finds it: the thread's eval'd code would look for it from the working directory.
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  const href = JSON.stringify(entry.href);
  return new Worker(`import(${tsx}).then((tsx) => tsx.tsImport(${href}, ${href}))`, {
    eval: true,
    workerData,
    resourceLimits,
  });
}
