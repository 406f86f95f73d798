/**
 * The reducer: `step(state, event, config) → { state, effects }`.
 *
 * This is a pure function: it runs the statechart with xstate's pure `transition()`, which computes the next
 * snapshot without executing anything, and returns the effects the machine's actions queued, as data. Paths xstate
 * has taken once are memoized and followed again without it (`macrostep-memo.ts`); the result is the same. Same
 * inputs give deep-equal outputs; inputs are never mutated. A finished run (status `done`) ignores every event
 * and yields no effect (docs/loop.md §9.8).
 */
import { createActor, initialTransition, type AnyActorScope } from 'xstate';
import type { LoopConfig } from '../config/config.ts';
import { loopMachine } from '../machine/loop-machine.ts';
import type { MachineContext } from '../machine/machine-context.ts';
import { recordMacrostep } from '../machine/macrostep-trace.ts';
import type { Effect } from './effects.ts';
import type { LoopEvent } from './events.ts';
import { createInitialContext, toLoopContext, toMachineContext } from './initial-state.ts';
import { MacrostepMemo, type MemoStats } from './macrostep-memo.ts';
import type { LoopParams, LoopState } from './state.ts';

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
  return fromContext(snapshot.value as LoopState['value'], snapshot.status === 'done', snapshot.context);
}

function fromContext(value: LoopState['value'], done: boolean, machineContext: MachineContext): StepResult {
  const state: LoopState = { value, status: done ? 'done' : 'active', context: toLoopContext(machineContext) };
  return { state, effects: machineContext.outbox };
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

const memo = new MacrostepMemo();

/**
 * Feeds one event to the machine. Events the current state does not handle leave the state unchanged.
 *
 * The first time a path through the chart is taken, xstate's `transition()` computes it and the path is memoized;
 * after that the same path is followed without xstate while the guards answer the same way (see
 * `macrostep-memo.ts`). The result is the same either way; `stepWithXState` is the unmemoized reference.
 */
export function step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  if (state.status === 'done') return { state, effects: [] };
  const followed = memo.follow(state.value, toMachineContext(state.context, config), event);
  if (followed) {
    const { end } = followed;
    return end.unchanged ? { state, effects: [] } : fromContext(end.value, end.done, followed.context);
  }
  inertScope(); // built before recording: building it runs the machine's initial entry action
  const { result: next, trace } = recordMacrostep(() => transitionWithXState(state, event, config));
  memo.add(state.value, event, trace, next
    ? { value: next.value as LoopState['value'], done: next.status === 'done', unchanged: false }
    : { value: state.value, done: false, unchanged: true });
  return next ? fromSnapshot(next) : { state, effects: [] };
}

/** `step()` computed by xstate's `transition()` alone, without the memo: the reference `step()` is checked against. */
export function stepWithXState(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  if (state.status === 'done') return { state, effects: [] };
  const next = transitionWithXState(state, event, config);
  return next ? fromSnapshot(next) : { state, effects: [] };
}

/** The snapshot xstate's `transition()` reaches, or null when the event changes nothing. */
function transitionWithXState(state: LoopState, event: LoopEvent, config: LoopConfig): Snapshot | null {
  const snapshot = loopMachine.resolveState({ value: state.value as Snapshot['value'], context: toMachineContext(state.context, config) });
  const next = loopMachine.transition(snapshot, event, inertScope());
  return next === snapshot ? null : next;
}

/** How often `step()` followed a memoized path, and the memo's size (for benchmarks and tests). */
export function macrostepMemoStats(): Readonly<MemoStats> {
  return { ...memo.stats };
}
