/**
 * Run settings shared by the property tests. `TURNLOOP_DEEP=1` (`npm run test:deep`) multiplies every run count
 * by 10; `TURNLOOP_SEED=<n>` replays one seed (fast-check prints the seed and the shrunk path of a failure).
 */
import fc from 'fast-check';

export const DEEP = Boolean(process.env.TURNLOOP_DEEP);

export function propertyOptions<T = unknown>(numRuns: number): fc.Parameters<T> {
  const seed = process.env.TURNLOOP_SEED;
  return {
    numRuns: DEEP ? numRuns * 10 : numRuns,
    verbose: fc.VerbosityLevel.Verbose,
    ...(seed !== undefined ? { seed: Number(seed) } : {}),
  };
}
