import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The installed-package suite packs and installs the tarball: its own script, `npm run test:package`.
    // The Agent SDK suite is a package of its own with the real executable: `npm run test:agent-sdk`.
    // The browser and interop suites install their tools in their own folders: `npm run test:browser`, `test:interop`.
    exclude: ['test/perf/**', '**/node_modules/**', 'test/package/**', 'test/agent-sdk/**', 'test/browser/**', 'test/interop/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
