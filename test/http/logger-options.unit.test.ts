import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loggerOptions } from '../../src/server.js';

/** The serving node's logger (pino's own destination, asynchronous writes): what reaches the file. */
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-log-'));
  file = join(dir, 'server.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** Runs a module script that has `log` (a logger on loggerOptions writing to `file`, open) and returns how it ended. */
function runWithLogger(body: string) {
  const script = `
    import pino from 'pino';
    const { loggerOptions } = await import(${JSON.stringify(new URL('../../src/server.ts', import.meta.url).pathname)});
    const options = loggerOptions({ logLevel: 'info' }, ${JSON.stringify(file)});
    const log = pino(options, options.stream);
    await new Promise((resolve) => options.stream.once('ready', resolve));
    ${body}`;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: new URL('../..', import.meta.url).pathname,
    timeout: 20_000,
    encoding: 'utf8',
  });
}

it('writes the lines still waiting when the process exits', () => {
  const run = runWithLogger(`
    for (let n = 0; n < 100; n++) log.info({ n }, 'a line');
    process.exit(0);`);
  expect(run.status).toBe(0);
  // Every line, once. Not necessarily in order: a write still in flight in the thread pool when the exit
  // flush writes the rest synchronously can land after it (sonic-boom's flushSync; seen on a loaded machine).
  const written = linesOf(readFileSync(file, 'utf8')).map((line) => line.n as number);
  expect(written).toHaveLength(100);
  expect([...written].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, n) => n));
});

it('writes the error line that explains a crash before the process dies of it', () => {
  const run = runWithLogger(`
    log.info('before the crash');
    log.error({ reason: 'the disk is full' }, 'giving up');
    throw new Error('crash');`);
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('crash');
  // Both lines, once each; their order is not the claim (the same in-flight write race as the test above:
  // the first line's write may still be in the thread pool when the crash flush writes the second).
  const written = linesOf(readFileSync(file, 'utf8')).sort(
    (a, b) => (a.level as number) - (b.level as number),
  );
  expect(written).toHaveLength(2);
  expect(written).toMatchObject([
    { level: 30, msg: 'before the crash' },
    { level: 50, msg: 'giving up', reason: 'the disk is full' },
  ]);
});

it('drops lines past its buffer limit, counts them, and says how many once it writes again', async () => {
  const options = loggerOptions({ logLevel: 'info' }, file, 300);
  const log = pino(options, options.stream);
  try {
    // The file opens asynchronously: until then every line waits, and past 300 bytes they are dropped.
    for (let n = 0; n < 20; n++) log.info({ n }, 'a line of about sixty bytes');
    await new Promise((resolve) => options.stream.once('ready', resolve));
    const deadline = Date.now() + 5_000;
    let lines = linesOf(readFileSync(file, 'utf8'));
    while (!lines.some((line) => line.droppedLines) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      lines = linesOf(readFileSync(file, 'utf8'));
    }
    const kept = lines.filter((line) => line.n !== undefined).map((line) => line.n);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, n) => n));
    expect(lines.at(-1)).toMatchObject({ level: 40, droppedLines: 20 - kept.length });
  } finally {
    options.stream.end();
  }
});
