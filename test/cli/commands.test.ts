import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStorageEnv, runCli, startCli } from '../helpers/cli.js';

let env: Record<string, string>;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ env, cleanup } = await freshStorageEnv());
});
afterAll(() => cleanup());

async function whoami(url: string, token: string) {
  const res = await fetch(`${url}/API/v3/whoami`, { headers: { 'x-api-token': token } });
  return { status: res.status, body: await res.json() };
}

// Each test runs the CLI several times, each a new Node process: bounded for a loaded machine, as first-start's.
describe('fieldwork init, token and migrate', { timeout: 120_000 }, () => {
  it('bootstraps organisations for scripts, and rotates tokens', async () => {
    const first = await runCli(['init', '--brand', 'acme', '--json'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const acme = JSON.parse(first.stdout);
    expect(Object.keys(acme).sort()).toEqual(['apiToken', 'brandId', 'directoryId', 'userId']);
    expect(acme).toMatchObject({ brandId: 'acme' });
    expect(acme.userId).toMatch(/^UR_[A-Za-z0-9]{15}$/);
    expect(acme.directoryId).toMatch(/^POOL_[A-Za-z0-9]{15}$/);
    expect(acme.apiToken).toMatch(/^[A-Za-z0-9]{40}$/);

    const second = await runCli(['init', '--brand', 'globex', '--target-audience', '--json'], env);
    expect(second.code).toBe(0);
    const globex = JSON.parse(second.stdout);

    const repeat = await runCli(['init', '--brand', 'acme', '--json'], env);
    expect(repeat.code).toBe(1);
    expect(repeat.stdout).toBe('');
    expect(repeat.stderr.trim().split('\n')).toHaveLength(1);
    expect(repeat.stderr).toContain('acme');

    const create = await runCli(['token', 'create', '--user', acme.userId], env);
    expect(create.code).toBe(1);
    expect(create.stderr).toContain('rotate');
    const rotate = await runCli(['token', 'rotate', '--user', acme.userId], env);
    expect(rotate.code).toBe(0);
    const rotated = rotate.stdout.trim();
    expect(rotated).toMatch(/^[A-Za-z0-9]{40}$/);

    const migrate = await runCli(['migrate'], env);
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain('up to date');

    const server = await startCli(process.execPath, ['bin/fieldwork.js', 'serve', '--port', '0'], env);
    try {
      expect(server.token).toBeUndefined();
      expect((await whoami(server.url, acme.apiToken)).status).toBe(401);
      expect((await whoami(server.url, rotated)).body.result.brandId).toBe('acme');
      // Rotated by another process while the server runs: the token it just accepted fails at once.
      const again = await runCli(['token', 'rotate', '--user', acme.userId], env);
      expect(again.code).toBe(0);
      expect((await whoami(server.url, rotated)).status).toBe(401);
      expect((await whoami(server.url, again.stdout.trim())).body.result.brandId).toBe('acme');
      expect((await whoami(server.url, globex.apiToken)).body.result.brandId).toBe('globex');
      const org = await fetch(`${server.url}/API/v3/organizations/globex`, {
        headers: { 'x-api-token': globex.apiToken },
      });
      expect((await org.json()).result.targetAudience).toBe(true);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('bad settings stop the start with one line that names them', () => {
  it.each([
    [['serve', '--port', 'abc'], {}, '--port'],
    [['serve'], { PORT: '70000' }, 'PORT'],
    [['serve', '--role', 'boss'], {}, '--role'],
    [['serve'], { DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [['serve'], { FIELDWORK_ALLOW_PRIVATE_TARGETS: 'maybe' }, 'FIELDWORK_ALLOW_PRIVATE_TARGETS'],
    [['serve', '--tls-cert', '/nonexistent.pem'], {}, '--tls-cert'],
    [['serve', '--export-retention-hours', '0'], {}, '--export-retention-hours'],
    [['serve'], { FIELDWORK_EXPORT_RETENTION_HOURS: 'forever' }, 'FIELDWORK_EXPORT_RETENTION_HOURS'],
    [['init', '--brand', 'Not A Word'], {}, '--brand'],
  ] as [string[], Record<string, string>, string][])(
    '%j %j',
    { concurrent: true },
    async (args, extraEnv, named) => {
      const result = await runCli(args, { ...env, ...extraEnv });
      expect(result.code).not.toBe(0);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(named);
    },
  );
});

// Decision 0019: `fieldwork serve` sets V8's heap growing factor before the application loads, so the full
// collections made while it loads limit the heap with it. V8 prints each new limit with the factor it
// used (`--trace-gc-verbose`): `[HeapController] Limit: old size: … KB, new limit: … KB (1.5)`.
describe('fieldwork serve --heap-growth', { timeout: 120_000 }, () => {
  /** The factors of the heap limits V8 set before the server listened, in order. */
  async function factorsUntilListening(args: string[]): Promise<string[]> {
    const node = ['--trace-gc-verbose', 'bin/fieldwork.js', 'serve', '--port', '0', ...args];
    const server = await startCli(process.execPath, node, env);
    try {
      const started = server.output().split('listening on ')[0] as string;
      return [...started.matchAll(/\[HeapController\] Limit: .*\(([\d.]+)\)/g)].map((m) => m[1] as string);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }

  /**
   * The first collections may come before the command line is read, with V8's own factor; from the first
   * limit with `factor` on, every limit set while the server loaded uses it. How many full collections a
   * start makes is V8's choice (one was seen with 120 on a slow machine), so their number is not checked.
   */
  function expectAppliedWhileLoading(factors: string[], factor: string): void {
    const from = factors.indexOf(factor);
    expect(from, factors.join(' ')).toBeGreaterThanOrEqual(0);
    expect(factors.slice(from)).toEqual(factors.slice(from).map(() => factor));
  }

  it('grows the heap by half between full collections by default, from the collections made while loading', async () => {
    expectAppliedWhileLoading(await factorsUntilListening([]), '1.5');
  });

  it('takes another factor from --heap-growth', async () => {
    expectAppliedWhileLoading(await factorsUntilListening(['--heap-growth', '120']), '2.2');
  });
});
