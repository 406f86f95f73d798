/**
 * The reducer the explorer folds: `step()` itself, or the same fold over another copy of the loop machine (a
 * mutant with a guard broken, for the tests that hold the explorer honest). Pure: xstate's `transition()` computes
 * the next snapshot without executing anything.
 */
import { initialTransition, transition } from 'xstate';
import type { LoopConfig } from '../config/config.ts';
import type { LoopMachine } from '../machine/loop-machine.ts';
import type { LoopEvent } from '../reducer/events.ts';
import { createInitialContext, toLoopContext, toMachineContext } from '../reducer/initial-state.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { initialState, step, type StepResult } from '../reducer/step.ts';

export interface Stepper {
  initial(params: LoopParams, config: LoopConfig): StepResult;
  step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult;
}

/** The engine's own reducer. */
export const engineStepper: Stepper = { initial: initialState, step };

type Snapshot = ReturnType<LoopMachine['resolveState']>;

function resultOf(snapshot: Snapshot): StepResult {
  const context = snapshot.context;
  const state: LoopState = { value: snapshot.value as LoopState['value'], status: snapshot.status === 'done' ? 'done' : 'active', context: toLoopContext(context) };
  return { state, effects: context.outbox };
}

/** The reducer over `machine`, e.g. `loopMachine.provide({ guards: { ... } })`. */
export function stepperFor(machine: LoopMachine): Stepper {
  return {
    initial(params, config) {
      const [snapshot] = initialTransition(machine, toMachineContext(createInitialContext(params, config), config));
      return resultOf(snapshot as Snapshot);
    },
    step(state, event, config) {
      if (state.status === 'done') return { state, effects: [] };
      const snapshot = machine.resolveState({ value: state.value as Snapshot['value'], context: toMachineContext(state.context, config) });
      const [next] = transition(machine, snapshot, event);
      return next === snapshot ? { state, effects: [] } : resultOf(next as Snapshot);
    },
  };
}
