import { afterEach, expect, it } from 'vitest';
import { freshStorageEnv, type StartedServer, startCli } from '../helpers/cli.js';
import { TEST_ENGINE } from '../helpers/test-app.js';

let server: StartedServer | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.stop();
  await cleanup?.();
  server = undefined;
});

// The README's start command, as written (`npm start`), on fresh storage. On PostgreSQL the same server
// is started through the package's bin with DATABASE_URL, so the two halves of the suite do not build
// dist/ at the same moment.
it('starts on fresh storage, prints a URL and a token that answers whoami, and stops cleanly on SIGTERM', {
  timeout: 120_000,
}, async () => {
  const storage = await freshStorageEnv();
  cleanup = storage.cleanup;
  server =
    TEST_ENGINE === 'sqlite'
      ? await startCli('npm', ['start', '--silent', '--', '--port', '0'], storage.env)
      : await startCli(process.execPath, ['bin/fieldwork.js', 'serve', '--port', '0'], storage.env);
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(server.token).toMatch(/^[A-Za-z0-9]{40}$/);
  const firstToken = server.token as string;

  const res = await fetch(`${server.url}/API/v3/whoami`, { headers: { 'X-API-TOKEN': firstToken } });
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.meta.httpStatus).toBe('200 - OK');
  expect(body.result.accountType).toBe('UT_BRANDADMIN');

  // The token is printed once, never logged.
  expect(server.output().split(firstToken)).toHaveLength(2);
  expect(await server.stop()).toBe(0);
  server = undefined;

  // A second start over the same storage does not bootstrap again, and the first token still works.
  server = await startCli(process.execPath, ['bin/fieldwork.js', 'serve', '--port', '0'], storage.env);
  expect(server.token).toBeUndefined();
  const again = await fetch(`${server.url}/API/v3/whoami`, { headers: { 'x-api-token': firstToken } });
  expect(again.status).toBe(200);
});
