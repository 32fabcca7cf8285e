import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema, TEST_DATABASE_URL, withPgClient } from './postgres.js';
import { TEST_ENGINE } from './test-app.js';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Environment that points the real command line at fresh, empty storage on the engine under test. */
export async function freshStorageEnv(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'fieldwork-cli-'));
  if (TEST_ENGINE === 'sqlite') {
    return {
      env: { FIELDWORK_DATA_DIR: dir },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `cli_${randomBytes(6).toString('hex')}`;
  await withPgClient((client) => client.query(`create schema ${schema}`));
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { FIELDWORK_DATA_DIR: dir, DATABASE_URL: url.toString() },
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await dropSchema(schema);
    },
  };
}

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...extra };
  return env;
}

/** Runs `node bin/fieldwork.js ARGS` to the end (bounded by a timeout that a loaded CI machine stays within). */
export function runCli(args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/fieldwork.js', ...args], { cwd: ROOT, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`fieldwork ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface StartedServer {
  child: ChildProcessWithoutNullStreams;
  url: string;
  token?: string;
  output(): string;
  /** SIGTERM, then the exit code (SIGKILL after a bound, so no server outlives its test). */
  stop(): Promise<number | null>;
}

/** Starts a long-running command and waits for its "listening on" line. */
export function startCli(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<StartedServer> {
  const child = spawn(command, args, { cwd: ROOT, env: cleanEnv(env), detached: true });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stop = async () => {
    // The server itself gets SIGTERM (under `npm start` it is a grandchild; npm then exits with its code).
    if (child.exitCode === null) signalServer(child.pid as number, 'SIGTERM');
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {}
    }, 10_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop().then(() => reject(new Error(`server did not start within 120 s:\n${output}`)));
    }, 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const url = /listening on (https?:\/\/\S+)/.exec(output)?.[1];
      const token = /API token \(shown only this once\): ([A-Za-z0-9]{40})/.exec(output)?.[1];
      // The server writes its URL and any first-start token in one write, so both arrive together.
      if (url) {
        clearTimeout(timer);
        resolve({ child, url, token, output: () => output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output}`));
    });
  });
}

function signalServer(groupId: number, signal: NodeJS.Signals): void {
  let pids: number[] = [];
  try {
    const found = execFileSync('pgrep', ['-g', String(groupId), '-f', '^\\S*node .*main\\.js serve'], {
      encoding: 'utf8',
    });
    pids = found.split('\n').filter(Boolean).map(Number);
  } catch {
    // pgrep exits 1 when nothing matches: signal the whole group instead.
  }
  try {
    if (pids.length === 0) process.kill(-groupId, signal);
    for (const pid of pids) process.kill(pid, signal);
  } catch {}
}
