import { defineConfig } from 'vitest/config';

/** `npm run test:perf`: wall-clock suites, run alone (one file at a time) after `npm test`. */
export default defineConfig({
  test: {
    include: ['test/perf/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
