import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the viewer, inspector and Mermaid pages in headless Chromium. Its tools (playwright-core,
 * mermaid) live in test/browser/node_modules, installed by the script; run from the repository root.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
