import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);
const autocannonCli = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

export interface LoadOptions {
  connections?: number;
  durationS?: number;
  method?: string;
  body?: string;
}

/**
 * Drives a loopback URL from a separate process (so the server under test has its own core) and
 * returns the average requests per second; any non-2xx or error fails the benchmark.
 */
export async function requestsPerSecond(
  url: string,
  headers: Record<string, string> = {},
  options: LoadOptions = {},
): Promise<number> {
  if (!/^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url))
    throw new Error(`not a loopback URL: ${url}`);
  const args = [
    autocannonCli,
    '-j',
    '-c',
    String(options.connections ?? 16),
    '-d',
    String(options.durationS ?? 8),
  ];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  if (options.method) args.push('-m', options.method);
  if (options.body) args.push('-b', options.body);
  const { stdout } = await run(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return result.requests.average;
}
