import { defineConfig } from 'vitest/config';

/** `npm run test:package`: the tarball installed into an empty project (test/package/). */
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
