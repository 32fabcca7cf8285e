import { defineConfig } from 'vitest/config';

// Every storage test runs twice: on the embedded SQLite and on PostgreSQL (DESIGN.md, STYLE.md "Tests").
// Pure logic lives in *.unit.test.ts and runs once.
const storageTests = ['src/**/*.test.ts', 'test/**/*.test.ts'];
const unitTests = ['src/**/*.unit.test.ts', 'test/**/*.unit.test.ts'];
// What only PostgreSQL has (a server to stop, restart or freeze) lives in *.postgres.test.ts: that project alone.
const postgresOnlyTests = ['src/**/*.postgres.test.ts', 'test/**/*.postgres.test.ts'];
// The conformance suite reads ../shared and has its own config and command (npm run test:conformance).
const conformanceTests = ['test/conformance/**'];

export default defineConfig({
  test: {
    // Vitest's default on this 2-core kind is one worker, but most files wait (on PostgreSQL, child
    // processes, sockets, Chromium) far more than they compute: three files at once keep both cores busy.
    maxWorkers: 3,
    // Loading the app's module graph took ~2.5 s a file, a third of the suite's time, when every file
    // loaded it afresh. Storage tests take their state from buildApp's arguments (a database, a clock,
    // a config) rather than from module state, so the files of one worker share the modules they load.
    // Each project gets workers of its own (its env differs); openTestDatabase refuses a worker that mixes
    // them, which would otherwise test one engine twice and the other not at all.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: unitTests, exclude: conformanceTests } },
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: storageTests,
          exclude: [...unitTests, ...conformanceTests, ...postgresOnlyTests],
          env: { FIELDWORK_TEST_DB: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: storageTests,
          exclude: [...unitTests, ...conformanceTests],
          env: { FIELDWORK_TEST_DB: 'postgres' },
          globalSetup: ['test/helpers/postgres-global-setup.ts'],
        },
      },
    ],
  },
});
