/**
 * A job's worker thread from the TypeScript sources (src/jobs/worker-thread.ts): it loads its `.ts` entry
 * through tsx whatever the working directory (the thread's code once looked for tsx there, and a server
 * run from the sources elsewhere could not start a response import's reader).
 */
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

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
