import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI the e2e tests start is the compiled one, built fresh for each test run.
    globalSetup: ['test/helpers/build-cli.ts'],
    // Removes the temporary directories a file's tests made outside a test (test/helpers/temp-dir.ts).
    setupFiles: ['test/helpers/temp-dir-setup.ts'],
    // End-to-end tests start real Dask clusters and browsers: give them room, and keep the
    // two cores of a CI machine from being oversubscribed by running files two at a time.
    // Time limits are hang guards, not speed checks (bench/ measures speed): long enough for the
    // slowest end-to-end test on a shared machine under load, where a Dask shard took 3x its idle
    // time. A hang still ends the run well within CI's 90 minutes.
    testTimeout: 1_800_000,
    hookTimeout: 1_800_000,
    maxWorkers: 2,
  },
});
