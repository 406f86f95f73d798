import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The installed-package suite packs and installs the tarball: its own script, `npm run test:package`.
    exclude: ['test/perf/**', '**/node_modules/**', 'test/package/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
