import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CliResult, freshStorageEnv, runCli, type StartedServer, startCli } from '../helpers/cli.js';

// Issue 19, defects 7 and 11: the way back to a lost administrator's token without knowing its UR_ id
// (`token rotate --brand` / `--username`, `users list`), and `token create` doing what the README says.

let env: Record<string, string>;
let cleanup: () => Promise<void>;
let server: StartedServer | undefined;
beforeAll(async () => {
  ({ env, cleanup } = await freshStorageEnv());
});
afterAll(async () => {
  await server?.stop();
  await cleanup();
});

async function whoami(token: string): Promise<{ status: number; result?: Record<string, string> }> {
  const res = await fetch(`${server?.url}/API/v3/whoami`, { headers: { 'x-api-token': token } });
  return { status: res.status, result: (await res.json()).result };
}

function token(result: CliResult): string {
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const printed = result.stdout.trim();
  expect(printed).toMatch(/^[A-Za-z0-9]{40}$/);
  return printed;
}

function refusal(result: CliResult, ...named: string[]): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const name of named) expect(lines[0]).toContain(name);
}

it('finds users by brand or username, creates a token only where none exists, and lists users', {
  timeout: 120_000,
}, async () => {
  const acme = JSON.parse((await runCli(['init', '--brand', 'acme', '--json'], env)).stdout);
  const globex = JSON.parse((await runCli(['init', '--brand', 'globex', '--json'], env)).stdout);
  server = await startCli(process.execPath, ['bin/fieldwork.js', 'serve', '--port', '0'], env);
  // A later start shows the way back to a token it will never show again.
  expect(server.output()).toContain('npx fieldwork token rotate --brand');

  // globex has its own admin@acme (usernames are per organisation) and a user without a token.
  for (const username of ['admin@acme', 'nora']) {
    const created = await fetch(`${server.url}/API/v3/users`, {
      method: 'POST',
      headers: { 'x-api-token': globex.apiToken, 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        firstName: 'N',
        lastName: 'G',
        userType: 'UT_PARTICIPANT',
        email: 'n@g.example',
      }),
    });
    expect(created.status).toBe(200);
  }

  // create refuses a user who holds a token, and that token keeps working.
  refusal(await runCli(['token', 'create', '--brand', 'acme'], env), acme.userId, 'token rotate');
  expect((await whoami(acme.apiToken)).status).toBe(200);

  const rotated = token(await runCli(['token', 'rotate', '--brand', 'acme'], env));
  expect((await whoami(rotated)).result).toMatchObject({ brandId: 'acme', userId: acme.userId });
  expect((await whoami(acme.apiToken)).status).toBe(401);

  refusal(await runCli(['token', 'rotate', '--username', 'admin@acme'], env), 'acme, globex', '--brand');
  const theirs = token(
    await runCli(['token', 'rotate', '--username', 'admin@acme', '--brand', 'globex'], env),
  );
  expect((await whoami(theirs)).result).toMatchObject({ brandId: 'globex', userName: 'admin@acme' });
  expect((await whoami(rotated)).status).toBe(200);

  const nora = token(await runCli(['token', 'create', '--username', 'nora'], env));
  expect((await whoami(nora)).result).toMatchObject({ brandId: 'globex', userName: 'nora' });

  // Commands that change nothing, run side by side.
  const [noUser, unknownId, unknownBrand, unknownName, all, one] = await Promise.all([
    runCli(['token', 'create'], env),
    runCli(['token', 'rotate', '--user', 'UR_000000000000000'], env),
    runCli(['token', 'rotate', '--brand', 'initech'], env),
    runCli(['token', 'rotate', '--username', 'nobody', '--brand', 'acme'], env),
    runCli(['users', 'list'], env),
    runCli(['users', 'list', '--brand', 'acme'], env),
  ]);
  refusal(noUser, '--user', '--brand');
  refusal(unknownId, '--user');
  refusal(unknownBrand, '--brand', 'initech');
  refusal(unknownName, '--username');

  expect(all.code).toBe(0);
  const rows = all.stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t'));
  expect(rows[0]).toEqual(['brand', 'userId', 'username', 'userType', 'status', 'token']);
  // Ordered by organisation, then creation (to the second; the two made in one second in either order).
  expect(rows.slice(1, 3).map((row) => `${row[0]} ${row[2]}`)).toEqual([
    'acme admin@acme',
    'globex admin@globex',
  ]);
  expect(
    rows
      .slice(3)
      .map((row) => `${row[0]} ${row[2]}`)
      .sort(),
  ).toEqual(['globex admin@acme', 'globex nora']);
  expect(rows.slice(1).every((row) => row[5]?.startsWith('since '))).toBe(true);
  expect(one.stdout.trim().split('\n').slice(1)).toEqual([
    `acme\t${acme.userId}\tadmin@acme\tUT_BRANDADMIN\tactive\t${rows[1]?.[5]}`,
  ]);
  expect(globex.userId).toBe(rows[2]?.[1]);
});
