/**
 * The reducer: `step(state, event, config) → { state, effects }`.
 *
 * This is a pure function: it runs the statechart with xstate's pure `transition()`, which computes the next
 * snapshot without executing anything, and returns the effects the machine's actions queued, as data. Same
 * inputs give deep-equal outputs; inputs are never mutated. A finished run (status `done`) ignores every event
 * and yields no effect (SPEC §9.8).
 */
import { createActor, initialTransition, type AnyActorScope } from 'xstate';
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

let sharedScope: AnyActorScope | null = null;

/**
 * The inert actor scope every step runs in (what xstate's `transition()` builds anew on each call). Building one
 * constructs an actor, which eagerly computes the machine's initial snapshot: with no input that runs
 * `startIteration` on an undefined context, which throws (caught by xstate) and captures a stack trace. That was
 * about a third of a step's cost. One shared scope gives identical results: the machine's actions are all `assign`
 * (resolved into the snapshot, never handed to the executor), it has no children, timers or inspectors, and xstate
 * restores the executor it swaps in during a microstep.
 */
function inertScope(): AnyActorScope {
  if (sharedScope) return sharedScope;
  // Same construction as xstate's own inert scope; the actor is never started, its own snapshot is never read.
  const self = createActor(loopMachine, { input: undefined as unknown as MachineContext });
  const noop = () => undefined;
  sharedScope = { self, id: '', sessionId: '', logger: noop, defer: noop, emit: noop, stopChild: noop, system: self.system, actionExecutor: noop };
  return sharedScope;
}

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
  const next = loopMachine.transition(snapshot, event, inertScope());
  if (next === snapshot) return { state, effects: [] };
  return fromSnapshot(next);
}
