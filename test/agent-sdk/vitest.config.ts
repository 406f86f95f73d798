import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The docs' examples import turnloop as an installed package; here that is the root's build.
    alias: { 'turnloop/agent-sdk': fileURLToPath(new URL('../../dist/agent-sdk/index.js', import.meta.url)) },
  },
  test: {
    include: ['*.test.ts'],
    // One executable at a time: the runs are timed and the machine is shared.
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
