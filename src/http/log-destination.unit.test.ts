import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { LogDestination } from './log-destination.js';

let dir: string;
let file: string;
const open: LogDestination[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'fieldwork-log-'));
  file = join(dir, 'out.log');
});
afterEach(() => {
  for (const destination of open.splice(0)) destination.end();
  rmSync(dir, { recursive: true, force: true });
});

function destination(chunkLength: number, flushMs = 60_000): LogDestination {
  const sink = pino.destination({ dest: file, sync: false, maxLength: 1024 * 1024 });
  const made = new LogDestination(sink, { chunkLength, flushMs });
  open.push(made);
  return made;
}

/** The sink opens its file asynchronously: before that, nothing is written. */
const written = () => (existsSync(file) ? readFileSync(file, 'utf8') : '');

/** Polls the file (bounded): the sink writes asynchronously. */
async function writtenOnceIncludes(text: string): Promise<string> {
  const deadline = Date.now() + 5_000;
  while (!written().includes(text) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return written();
}
const line = (n: number) => `{"n":${n}}\n`;

it('keeps lines until a chunk is full, then writes them in order', async () => {
  const out = destination(40);
  await new Promise<void>((resolve) => out.sink.once('ready', resolve));
  for (let n = 0; n < 3; n++) out.write(line(n));
  out.flushSync();
  expect(written()).toBe(line(0) + line(1) + line(2));

  for (let n = 3; n < 8; n++) out.write(line(n)); // 5 lines of 8 characters: a chunk of 40, handed on
  const all = Array.from({ length: 8 }, (_, n) => line(n)).join('');
  expect(await writtenOnceIncludes(line(7))).toBe(all);
});

it('hands waiting lines on at the flush interval', async () => {
  const out = destination(1_000_000, 20);
  out.write(line(1));
  expect(await writtenOnceIncludes(line(1))).toBe(line(1));
});

it('does not write a partial chunk until asked, and writes it on a synchronous flush', async () => {
  const out = destination(1_000_000);
  await new Promise<void>((resolve) => out.sink.once('ready', resolve));
  out.write(line(1));
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(written()).toBe('');
  out.flushSync();
  expect(written()).toBe(line(1));
});

it('writes what waits when the process exits', () => {
  const script = `
    const { loggerOptions } = await import(${JSON.stringify(new URL('../server.ts', import.meta.url).pathname)});
    const options = loggerOptions({ logLevel: 'info' }, ${JSON.stringify(file)});
    options.stream.sink.once('ready', () => {
      options.stream.write('{"last":true}\\n');
      process.exit(0);
    });`;
  execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    timeout: 20_000,
  });
  expect(written()).toBe('{"last":true}\n');
});

it('drops lines written after the sink has closed instead of keeping them', async () => {
  const out = destination(1_000_000);
  await new Promise<void>((resolve) => out.sink.once('ready', resolve));
  out.write(line(1));
  const closed = new Promise<void>((resolve) => out.sink.once('close', resolve));
  out.end();
  await closed;
  expect(out.write(line(2))).toBe(false);
  expect(written()).toBe(line(1));
});
