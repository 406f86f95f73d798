/**
 * The reducer: `step(state, event, config) → { state, effects }`.
 *
 * This is a pure function that does not execute anything: it resolves the state as a snapshot of the loop machine
 * and runs xstate's public `transition()`, which returns the next snapshot and the actions to execute. The
 * machine's actions only assign context and queue effect actions (named after the effect types, the effect as
 * params, see `src/machine/loop-machine.ts`), so that action list IS the step's effects, as data. Same inputs give
 * deep-equal outputs; inputs are never mutated. A finished run (status `done`) ignores every event and yields no
 * effect (docs/loop.md §9.8).
 *
 * `createStepper({ memo: true })` (`stepper.ts`) gives the same results faster, for drivers that fold many events.
 */
import { initialTransition, transition } from 'xstate';
import type { LoopConfig } from '../config/config.ts';
import { loopMachine, type LoopMachine } from '../machine/loop-machine.ts';
import type { MachineContext } from '../machine/machine-context.ts';
import { acceptedEventTypes, isKnownEventType, knownEventTypes } from '../machine/accepted-events.ts';
import { statePath } from '../machine/effect-protocol.ts';
import { withTracer, type MachineTracer } from '../machine/macrostep-trace.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent, LoopEventType } from '../data/events.ts';
import { UnknownEventError } from '../data/unknown-event-error.ts';
import { createInitialContext, toLoopContext, toMachineContext } from '../machine/context-conversions.ts';
import type { LoopContext, LoopParams, LoopState } from '../data/state.ts';

export interface StepResult {
  state: LoopState;
  effects: Effect[];
  /**
   * Present when the event changed nothing because the state at rest does not accept its type at all (e.g.
   * `model_done` while the run waits for a context layer). Absent on every other step, including an accepted
   * event whose guards enabled no transition and any event after the end (status `done`).
   */
  ignored?: IgnoredEvent;
}

/** What `step()` ignored and why: the event's type, the state (as an `a.b` path) and the event types it accepts. */
export interface IgnoredEvent {
  event: LoopEventType;
  state: string;
  accepts: readonly LoopEventType[];
}

type Snapshot = ReturnType<LoopMachine['resolveState']>;
type ExecutableAction = { type: string; params?: unknown };

/**
 * The effects among the actions xstate returned, in order: the effect actions, named after their effect's type with
 * the effect as params. (The machine's own named actions resolve to assigns, which xstate never returns.)
 */
function effectsOf(actions: readonly ExecutableAction[]): Effect[] {
  const effects: Effect[] = [];
  for (const action of actions) {
    const params = action.params as { type?: unknown } | undefined;
    if (params?.type === action.type) effects.push(params as Effect);
  }
  return effects;
}

/** The step's result from the machine's context where it rests (used by the memo too, which has no snapshot). */
export function resultFromContext(value: LoopState['value'], done: boolean, machineContext: MachineContext, effects: Effect[]): StepResult {
  const state: LoopState = { value, status: done ? 'done' : 'active', context: toLoopContext(machineContext) };
  return { state, effects };
}

function resultOf(snapshot: Snapshot, actions: readonly ExecutableAction[]): StepResult {
  return resultFromContext(snapshot.value as LoopState['value'], snapshot.status === 'done', snapshot.context, effectsOf(actions));
}

/**
 * Starts a run: builds the initial context, gives it to the machine as its input and runs the machine up to its
 * first wait. The returned effects start the first iteration (request_start, then a context layer or the model call).
 */
export function initialState(params: LoopParams, config: LoopConfig): StepResult {
  return initialTransitionOf(createInitialContext(params, config), config);
}

/** `initialState()` from its initial context; with a `tracer`, the machine's guards and actions report to it. */
export function initialTransitionOf(initial: LoopContext, config: LoopConfig, tracer?: MachineTracer): StepResult {
  const context = toMachineContext(initial, config);
  const [snapshot, actions] = initialTransition(loopMachine, tracer ? withTracer(context, tracer) : context);
  return resultOf(snapshot, actions);
}

/**
 * Feeds one event to the machine.
 *
 * - An event of a type the machine does not know throws `UnknownEventError` (code `UNKNOWN_EVENT`), in any state.
 * - A finished run (status `done`) returns the same state and no effects.
 * - An event the current state does not accept leaves the state unchanged and says so in `ignored` (drivers feed
 *   late events on purpose, e.g. a tool's result after the run moved on, so this is not an error).
 */
export function step(state: LoopState, event: LoopEvent, config: LoopConfig): StepResult {
  checkEventType(event);
  if (state.status === 'done') return { state, effects: [] };
  return transitionOf(loopMachine, state, event, config) ?? unchangedBy(state, event);
}

/** Throws `UnknownEventError` unless the machine handles events of this type somewhere. */
export function checkEventType(event: LoopEvent): void {
  const type = (event as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !isKnownEventType(type)) throw new UnknownEventError(type, knownEventTypes());
}

/** The result of an event that enabled no transition: `ignored` when the state does not accept its type at all. */
export function unchangedBy(state: LoopState, event: LoopEvent): StepResult {
  const path = statePath(state.value);
  const accepts = acceptedEventTypes(path);
  return accepts.includes(event.type) ? { state, effects: [] } : { state, effects: [], ignored: { event: event.type, state: path, accepts } };
}

/**
 * One `transition()` of `machine` from `state`; null when the event changes nothing (no transition enabled). With
 * a `tracer`, the machine's guards and actions report each call to it (`macrostep-trace.ts`).
 */
export function transitionOf(machine: LoopMachine, state: LoopState, event: LoopEvent, config: LoopConfig, tracer?: MachineTracer): StepResult | null {
  const context = toMachineContext(state.context, config);
  const snapshot = machine.resolveState({ value: state.value as Snapshot['value'], context: tracer ? withTracer(context, tracer) : context });
  const [next, actions] = transition(machine, snapshot, event);
  return next === snapshot ? null : resultOf(next, actions);
}
