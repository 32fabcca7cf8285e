import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshStorageEnv, runCli, type StartedServer, startCli } from '../helpers/cli.js';

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

it('`fieldwork oauth-client create` registers a client whose credentials get a working bearer token', {
  timeout: 120_000,
}, async () => {
  const acme = JSON.parse((await runCli(['init', '--brand', 'acme', '--json'], env)).stdout);
  const created = await runCli(
    ['oauth-client', 'create', '--user', acme.userId, '--scopes', 'read:users,read:surveys', '--json'],
    env,
  );
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  const printed = JSON.parse(created.stdout);
  expect(Object.keys(printed)).toEqual(['clientId', 'clientSecret']);
  expect(printed.clientId).toMatch(/^[0-9a-f]{32}$/);

  // Without --json: a sentence for people, the secret in it once.
  const human = await runCli(['oauth-client', 'create', '--brand', 'acme', '--scopes', 'manage:all'], env);
  expect(human.code).toBe(0);
  expect(human.stdout).toContain('shown only this once');

  server = await startCli(process.execPath, ['bin/fieldwork.js', 'serve', '--port', '0'], env);
  const basic = Buffer.from(`${printed.clientId}:${printed.clientSecret}`).toString('base64');
  const issued = await fetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const answer = await issued.json();
  expect(issued.status).toBe(200);
  expect(answer.scope).toBe('read:users read:surveys');
  const whoami = await fetch(`${server.url}/API/v3/whoami`, {
    headers: { authorization: `Bearer ${answer.access_token}` },
  });
  expect(whoami.status).toBe(200);
  expect((await whoami.json()).result).toMatchObject({
    userId: acme.userId,
    brandId: 'acme',
    datacenter: 'loc1',
  });
  // The secret is printed by the command, never logged by the server.
  expect(server.output()).not.toContain(printed.clientSecret);
  expect(server.output()).not.toContain(answer.access_token);
});

it('refuses an unknown scope or an unknown user with one line naming the flag', {
  timeout: 60_000,
}, async () => {
  const scope = await runCli(
    ['oauth-client', 'create', '--brand', 'acme', '--scopes', 'read:everything'],
    env,
  );
  expect(scope.code).toBe(1);
  expect(scope.stdout).toBe('');
  expect(scope.stderr.trim().split('\n')).toHaveLength(1);
  expect(scope.stderr).toContain('--scopes');
  const user = await runCli(
    ['oauth-client', 'create', '--user', 'UR_000000000000000', '--scopes', 'manage:all'],
    env,
  );
  expect(user.code).toBe(1);
  expect(user.stderr).toContain('--user');
});
