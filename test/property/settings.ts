/**
 * Run settings shared by the property tests. `TURNLOOP_DEEP=1` (`npm run test:deep`) multiplies every run count
 * by 10; `TURNLOOP_SEED=<n>` replays one seed (fast-check prints the seed and the shrunk path of a failure).
 * `TURNLOOP_MUTATION=1` (set by `vitest.mutation.config.ts`, i.e. under `npm run test:mutation`) divides every run
 * count by `MUTATION_DIVISOR`, keeping at least `MUTATION_MIN_RUNS`: a surviving mutant runs every covering
 * property to the end, so run counts dominate the mutation run's wall time.
 */
import fc from 'fast-check';

export const DEEP = Boolean(process.env.TURNLOOP_DEEP);
export const MUTATION = Boolean(process.env.TURNLOOP_MUTATION);
export const MUTATION_DIVISOR = 3;
export const MUTATION_MIN_RUNS = 30;

/** The run count for a property written with `numRuns` runs, after the DEEP / MUTATION scaling. */
export function scaledRuns(numRuns: number): number {
  if (DEEP) return numRuns * 10;
  if (MUTATION) return Math.max(Math.min(numRuns, MUTATION_MIN_RUNS), Math.ceil(numRuns / MUTATION_DIVISOR));
  return numRuns;
}

/** `TURNLOOP_SEED`, if set. */
export function fixedSeed(): number | undefined {
  const seed = process.env.TURNLOOP_SEED;
  return seed !== undefined ? Number(seed) : undefined;
}

export function propertyOptions<T = unknown>(numRuns: number): fc.Parameters<T> {
  const seed = fixedSeed();
  return {
    numRuns: scaledRuns(numRuns),
    verbose: fc.VerbosityLevel.Verbose,
    ...(seed !== undefined ? { seed } : {}),
  };
}
