/**
 * A job's worker thread from the TypeScript sources (src/jobs/worker-thread.ts): it loads its `.ts` entry
 * through tsx whatever the working directory (the thread's code once looked for tsx there, and a server
 * run from the sources elsewhere could not start a response import's reader).
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { startWorkerThread, workerEntry } from '../../src/jobs/worker-thread.js';

it('starts a thread on a .ts entry from a working directory outside the project', async () => {
  const script = fileURLToPath(new URL('./fixtures/start-echo-thread.ts', import.meta.url));
  const cwd = tmpdir();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), script],
    { cwd, timeout: 30_000 },
  );
  expect(JSON.parse(stdout)).toEqual({ data: { cwd } });
});

it('starts a thread with the heap limits it is given (a response import reader asks for a larger young generation)', async () => {
  const young = async (limits?: { maxYoungGenerationSizeMb: number }) => {
    const thread = startWorkerThread(
      workerEntry(import.meta.url, 'fixtures/limits-thread'),
      undefined,
      limits,
    );
    try {
      const [message] = await once(thread, 'message');
      return (message as { young: number }).young;
    } finally {
      await thread.terminate();
    }
  };
  expect(await young({ maxYoungGenerationSizeMb: 64 })).toBe(64);
  expect(await young()).not.toBe(64);
});
