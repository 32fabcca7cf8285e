import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { freshStorageEnv, runCli, type StartedServer, startCli } from '../helpers/cli.js';

// Issue 19, defect 7: a first start that fails (busy port, bad host, bad TLS files) must not create the
// organisation, or its administrator's token, shown only by that start, would be lost for good.

const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
const SERVE = [process.execPath, 'bin/fieldwork.js', 'serve'] as const;

let env: Record<string, string>;
let cleanup: () => Promise<void>;
let server: StartedServer | undefined;
beforeEach(async () => {
  ({ env, cleanup } = await freshStorageEnv());
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await cleanup();
});

/** The next start over the same storage is still a first start: it prints a token, and the token works. */
async function expectFirstStartStillAhead(): Promise<void> {
  server = await startCli(SERVE[0], [...SERVE.slice(1), '--port', '0'], env);
  expect(server.token).toMatch(/^[A-Za-z0-9]{40}$/);
  const res = await fetch(`${server.url}/API/v3/whoami`, { headers: { 'x-api-token': server.token ?? '' } });
  expect(res.status).toBe(200);
  expect((await res.json()).result).toMatchObject({ brandId: 'fieldwork', accountType: 'UT_BRANDADMIN' });
}

function oneLine(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0] as string;
}

// Every failing start runs over the same storage, then one start follows: had any of them created the
// organisation, that start would not be a first start and would print no token.
it('starts that fail (busy port, bad host, bad TLS files, unreachable database) each print one line naming the setting and create nothing', {
  timeout: 120_000,
}, async () => {
  const blocker: Server = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = String((blocker.address() as { port: number }).port);
  try {
    const failed = await runCli(['serve', '--port', port], env);
    expect(failed.code).toBe(1);
    expect(failed.stdout).not.toMatch(/listening on|API token/);
    const line = oneLine(failed.stderr);
    expect(line).toContain(`port ${port}`);
    expect(line).toContain('--port');
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
  const cases: [string[], string][] = [
    [['--host', '999.1.1.1'], '--host'],
    [['--host', 'not a host'], '--host'],
    // Well formed, but no address of this machine (TEST-NET-1, RFC 5737): only listen can tell.
    [['--host', '192.0.2.1'], '--host'],
    [['--tls-cert', `${FIXTURES}README.md`, '--tls-key', `${FIXTURES}tls-key.pem`], '--tls-cert'],
    [['--tls-cert', `${FIXTURES}tls-cert.pem`, '--tls-key', `${FIXTURES}missing.pem`], '--tls-key'],
    // Nothing listens on port 1 of the loopback: the database cannot be reached.
    [['--database-url', 'postgres://postgres@127.0.0.1:1/test'], '--database-url'],
  ];
  for (const [flags, named] of cases) {
    const failed = await runCli(['serve', '--port', '0', ...flags], env);
    expect(failed.code, flags.join(' ')).not.toBe(0);
    expect(failed.stdout).not.toMatch(/listening on|API token/);
    expect(oneLine(failed.stderr), flags.join(' ')).toContain(named);
  }
  await expectFirstStartStillAhead();
});

it('serves https with PEM files, and the first token works over it', { timeout: 120_000 }, async () => {
  const cert = `${FIXTURES}tls-cert.pem`;
  const tls = ['--tls-cert', cert, '--tls-key', `${FIXTURES}tls-key.pem`];
  server = await startCli(SERVE[0], [...SERVE.slice(1), '--port', '0', ...tls], env);
  expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const dispatcher = new Agent({ connect: { ca: readFileSync(cert) } });
  try {
    const res = await undiciFetch(`${server.url}/API/v3/whoami`, {
      headers: { 'x-api-token': server.token ?? '' },
      dispatcher,
    });
    expect(res.status).toBe(200);
  } finally {
    await dispatcher.close();
  }
});

it('a worker says what it does, serves health and no API, and makes no organisation', {
  timeout: 120_000,
}, async () => {
  server = await startCli(SERVE[0], [...SERVE.slice(1), '--port', '0', '--role', 'worker'], env);
  const banner = server.output();
  expect(banner).toContain(`worker: running background jobs; health at ${server.url}/health`);
  expect(banner).not.toMatch(/API at|docs at|API token/);
  expect((await fetch(`${server.url}/health`)).status).toBe(200);
  expect((await fetch(`${server.url}/API/docs`)).status).toBe(404);
  expect((await fetch(`${server.url}/API/v3/whoami`)).status).toBe(404);
  expect(await server.stop()).toBe(0);
  server = undefined;
  await expectFirstStartStillAhead();
});
