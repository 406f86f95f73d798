/**
 * The reducer: `step(state, event, config) → { state, effects }`.
 *
 * This is a pure function: it runs the statechart with xstate's pure `transition()`, which computes the next
 * snapshot without executing anything, and returns the effects the machine's actions queued, as data. Same
 * inputs give deep-equal outputs; inputs are never mutated. A finished run (status `done`) ignores every event
 * and yields no effect (SPEC §9.8).
 */
import { initialTransition, transition } from 'xstate';
import type { LoopConfig } from '../config/config.ts';
import { loopMachine } from '../machine/loop-machine.ts';
import type { MachineContext } from '../machine/machine-context.ts';
import type { Effect } from './effects.ts';
import type { LoopEvent } from './events.ts';
import { createInitialContext, toMachineContext } from './initial-state.ts';
import type { LoopContext, LoopParams, LoopState } from './state.ts';

export interface StepResult {
  state: LoopState;
  effects: Effect[];
}

type Snapshot = ReturnType<typeof loopMachine.resolveState>;

function fromSnapshot(snapshot: Snapshot): StepResult {
  const { config: _config, outbox, ...context } = snapshot.context as MachineContext;
  const state: LoopState = {
    value: snapshot.value as LoopState['value'],
    status: snapshot.status === 'done' ? 'done' : 'active',
    context: context as LoopContext,
  };
  return { state, effects: outbox };
}

/**
 * Starts a run: builds the initial context and runs the machine up to its first wait.
 * The returned effects start the first iteration (request_start, then a context layer or the model call).
 */
export function initialState(params: LoopParams, config: LoopConfig): StepResult {
  const context = toMachineContext(createInitialContext(params, config), config);
  const [snapshot] = initialTransition(loopMachine, context);
  return fromSnapshot(snapshot);
}

/** Feeds one event to the machine. Events the current state does not handle leave the state unchanged. */
export function step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  if (state.status === 'done') return { state, effects: [] };
  const snapshot = loopMachine.resolveState({
    value: state.value as Snapshot['value'],
    context: toMachineContext(state.context, config),
  });
  const [next] = transition(loopMachine, snapshot, event);
  if (next === snapshot) return { state, effects: [] };
  return fromSnapshot(next);
}
