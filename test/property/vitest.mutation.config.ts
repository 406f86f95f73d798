/**
 * The vitest config Stryker runs (see `mutation/stryker.config.json`): only the tests of the pure core that is mutated
 * (`src/reducer`, `src/machine`): the transition/terminal/continue unit tests and the property tests, not the
 * CLI, viz, model-adapter or tool tests. `TURNLOOP_MUTATION_TESTS` (comma-separated globs) narrows it, e.g. to
 * `test/property/**\/*.test.ts` for a quick estimate.
 *
 * Under this config:
 * - `TURNLOOP_MUTATION=1`: `settings.ts` divides the property run counts (see there);
 * - `TURNLOOP_SEED` is pinned (unless already set): results are reproducible, and `@fast-check/vitest` puts the
 *   seed into the test name, which must not change between Stryker's dry run and its mutant runs (Stryker selects
 *   the covering tests of a mutant by name);
 * - files run cheapest first, so that Stryker's bail-on-first-failure stops a killed mutant early.
 */
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

export const CORE_TESTS = [
  'test/unit/terminals.test.ts',
  'test/unit/continues.test.ts',
  'test/unit/machine-inventory.test.ts',
  'test/unit/transitions-*.test.ts',
  'test/unit/guards-*.test.ts',
  'test/unit/queries-*.test.ts',
  'test/unit/reducer-*.test.ts',
  'test/unit/actions-*.test.ts',
  'test/property/**/*.test.ts',
];

/** Cheapest first: unit tests, then the property files by their (measured) cost. */
const LAST = ['purity.test.ts', 'run-invariants.test.ts', 'death-spiral.test.ts', 'model-coverage.test.ts'];

class CheapestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => LAST.findIndex((name) => file.moduleId.endsWith(`/test/property/${name}`));
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: process.env.TURNLOOP_MUTATION_TESTS?.split(',') ?? CORE_TESTS,
    env: { TURNLOOP_MUTATION: '1', TURNLOOP_SEED: process.env.TURNLOOP_SEED ?? '20260101' },
    sequence: { sequencer: CheapestFirst },
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
