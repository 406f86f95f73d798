/**
 * The scripted stop hook of a scenario: one answer per invocation, in order; a used-up list allows the stop.
 */
import type { StopHook, StopHookResult } from '../data/deps.ts';

export interface ScriptedStopHook {
  hook: StopHook;
  /** Invocations so far. */
  calls(): number;
}

/**
 * @example
 * const stop = scriptedStopHook([{ blockingError: 'run the tests first' }]);
 * query({ ..., stopHooks: [stop.hook] });
 */
export function scriptedStopHook(answers: readonly StopHookResult[]): ScriptedStopHook {
  let calls = 0;
  return {
    hook: () => {
      const answer = answers[calls] ?? {};
      calls += 1;
      return { ...answer };
    },
    calls: () => calls,
  };
}
