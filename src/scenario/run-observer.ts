/**
 * Reads a run through `onStep`: the Continue transitions in order, model calls, and compaction attempts and
 * successes. Every iteration after the first starts with a `request_start` effect, and the state of that step
 * holds the Continue that started it.
 */
import type { StepObserver } from '../runtime/query-options.ts';
import type { ContinueReason } from '../data/outcomes.ts';

export interface AttemptCount {
  attempted: number;
  succeeded: number;
}

export interface RunObservation {
  transitions: ContinueReason[];
  modelCalls: number;
  compactions: {
    /** `beforeModelCalls`: the model call (1-based) each autocompact attempt came before. */
    auto: AttemptCount & { beforeModelCalls: number[] };
    reactive: AttemptCount;
    collapseDrain: AttemptCount;
  };
}

export function createRunObserver(): { onStep: StepObserver; observation: RunObservation } {
  const observation: RunObservation = {
    transitions: [],
    modelCalls: 0,
    compactions: { auto: { attempted: 0, succeeded: 0, beforeModelCalls: [] }, reactive: { attempted: 0, succeeded: 0 }, collapseDrain: { attempted: 0, succeeded: 0 } },
  };
  const { compactions } = observation;
  const onStep: StepObserver = ({ event, state, effects }) => {
    if (event?.type === 'autocompact_result' && event.ok) compactions.auto.succeeded += 1;
    if (event?.type === 'reactive_compact_result' && event.ok) compactions.reactive.succeeded += 1;
    if (event?.type === 'collapse_drain_result' && event.committed > 0) compactions.collapseDrain.succeeded += 1;
    for (const effect of effects) {
      if (effect.type === 'call_model') observation.modelCalls += 1;
      if (effect.type === 'autocompact') {
        compactions.auto.attempted += 1;
        compactions.auto.beforeModelCalls.push(state.context.modelCalls + 1);
      }
      if (effect.type === 'reactive_compact') compactions.reactive.attempted += 1;
      if (effect.type === 'collapse_drain') compactions.collapseDrain.attempted += 1;
      if (effect.type === 'request_start' && event !== null && state.context.transition) {
        observation.transitions.push(state.context.transition.reason);
      }
    }
  };
  return { onStep, observation };
}
