import { defineConfig } from 'vitest/config';

// The conformance suite checks Fieldwork against the shared reference data beside the repository
// (../shared: the spec's endpoint list, real survey files, real exports). It never copies that data in.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    env: { FIELDWORK_TEST_DB: 'sqlite' },
  },
});
