/**
 * The reducer the explorer folds: the engine's own (a memoizing stepper, `src/reducer/stepper.ts`), or the same
 * fold over another copy of the loop machine (a mutant with a guard broken, for the tests that hold the explorer
 * honest). Pure: xstate's `transition()` computes the next snapshot without executing anything.
 */
import type { LoopConfig } from '../config/config.ts';
import type { LoopMachine } from '../machine/loop-machine.ts';
import type { LoopEvent } from '../data/events.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import { initialState, transitionOf, unchangedBy, type StepResult } from '../reducer/step.ts';
import { createStepper } from '../reducer/stepper.ts';

export interface Stepper {
  initial(params: LoopParams, config: LoopConfig): StepResult;
  step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult;
}

/** The engine's reducer, with a memo of its own (created per exploration, dropped with it). */
export function engineStepper(): Stepper {
  const stepper = createStepper({ memo: true });
  return { initial: stepper.initialState, step: stepper.step };
}

/** The reducer over `machine`, e.g. `loopMachine.provide({ guards: { ... } })`. */
export function stepperFor(machine: LoopMachine): Stepper {
  return {
    // The run starts as the engine's does: a mutant's guards act from the first event on (the initial transition
    // only reaches the first wait, where a fresh run's counters leave every death-spiral guard unasked).
    initial: initialState,
    step(state, event, config) {
      if (state.status === 'done') return { state, effects: [] };
      return transitionOf(machine, state, event, config) ?? unchangedBy(state, event);
    },
  };
}
