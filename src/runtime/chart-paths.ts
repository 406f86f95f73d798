/**
 * The chart's paths, recorded once per machine and shared by every run and replay in the process.
 *
 * Why: a memo (`src/reducer/macrostep-memo.ts`) asks xstate for each path the first time it meets it, 0.6-1.1 ms
 * in a run's first tool turn; with a fresh memo per run every short run paid that again. The paths are the chart's
 * structure only (guard and action functions with their params, state values), never run data, and a memo follows
 * a path only while every guard answers as recorded, so sharing them changes no result (the property and
 * differential tests hold memoized steps equal to xstate's).
 *
 * This is the shell's cache, not the core's: the pure core keeps no module state (test/unit/core-module-state.test.ts),
 * so the drivers own it here and hand it to each run's memo (`createStepMemo(sharedChartPaths())`). Keyed by the
 * machine object, so two copies of the library in one process (each with its own machine and functions) never
 * share a tree, and the paths go when the machine does.
 */
import { loopMachine } from '../machine/loop-machine.ts';
import { createChartPaths, type ChartPaths } from '../reducer/macrostep-memo.ts';

const pathsByMachine = new WeakMap<object, ChartPaths>();

/** The paths of `machine` (the loop machine unless told), created on first use. */
export function sharedChartPaths(machine: object = loopMachine): ChartPaths {
  let paths = pathsByMachine.get(machine);
  if (!paths) pathsByMachine.set(machine, (paths = createChartPaths()));
  return paths;
}
