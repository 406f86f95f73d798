/**
 * The vitest config Stryker runs (see `stryker.config.json`): only the unit and property tests, which exercise
 * the pure core that is mutated (`src/reducer`, `src/machine`). `TURNLOOP_MUTATION_TESTS` (comma-separated globs)
 * narrows it, e.g. to `test/property/**\/*.test.ts` for a quick estimate.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: process.env.TURNLOOP_MUTATION_TESTS?.split(',') ?? ['test/unit/**/*.test.ts', 'test/property/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
