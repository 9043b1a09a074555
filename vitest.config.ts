import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI the e2e tests start is the compiled one, built fresh for each test run.
    globalSetup: ['test/helpers/build-cli.ts'],
    // End-to-end tests start real Dask clusters and browsers: give them room, and keep the
    // two cores of a CI machine from being oversubscribed by running files two at a time.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
  },
});
