import { defineConfig } from 'vitest/config';

/**
 * `npm run test:interop`: turnloop against third-party programs (the MCP reference servers, the SCION SCXML
 * interpreter), installed in test/interop/node_modules by the script; run from the repository root.
 */
export default defineConfig({
  test: {
    include: ['test/interop/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
