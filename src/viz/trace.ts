/**
 * Which chart transitions one `step()` took. A step is one xstate macrostep: the event's transition, then every
 * eventless transition until the machine waits again. xstate's pure `getMicrosteps()` gives the snapshot after
 * each microstep but not the transition; this module recovers it the way xstate selects it: from the active leaf
 * up to the root, the first transition for the event (or `always`) whose named guard holds in the snapshot before
 * that microstep (docs/loop.md §4's first-match-wins order is the machine's declaration order).
 *
 * Pure; for visualisation only. `step()` stays the source of truth for the state itself.
 */
import { getInitialMicrosteps, getMicrosteps } from 'xstate';
import type { LoopConfig } from '../config/config.ts';
import { guards } from '../machine/guards.ts';
import { loopMachine } from '../machine/loop-machine.ts';
import type { GuardFn, MachineContext } from '../machine/machine-context.ts';
import type { LoopEvent } from '../data/events.ts';
import { toMachineContext } from '../machine/context-conversions.ts';
import type { LoopState } from '../data/state.ts';
import { ALWAYS, leafOf, type Chart, type ChartTransition, type NamedRef } from './graph.ts';

interface MicroSnapshot {
  value: unknown;
  context: MachineContext;
}

/** The ids from `leaf` up to the top level, leaf first (`exitLadder.stopHooks`, `exitLadder`). */
function ancestry(leaf: string): string[] {
  const parts = leaf.split('.');
  return parts.map((_, i) => parts.slice(0, parts.length - i).join('.'));
}

function guardHolds(guard: NamedRef | null, context: MachineContext, event: LoopEvent): boolean {
  if (!guard) return true;
  const fn = (guards as Record<string, GuardFn<unknown>>)[guard.name];
  return fn ? fn(context, event, guard.params) : false;
}

/** The transition xstate selects in `leaf` for `eventType`, or null. */
export function selectTransition(
  chart: Chart,
  leaf: string,
  eventType: string,
  context: MachineContext,
  event: LoopEvent,
): ChartTransition | null {
  for (const source of [...ancestry(leaf), null]) {
    for (const t of chart.transitions) {
      if (t.source === source && t.event === eventType && guardHolds(t.guard, context, event)) return t;
    }
  }
  return null;
}

function chain(chart: Chart, before: MicroSnapshot, steps: MicroSnapshot[], event: LoopEvent, firstIsEvent: boolean): string[] {
  const taken: string[] = [];
  let prev = before;
  steps.forEach((next, i) => {
    const eventType = i === 0 && firstIsEvent ? event.type : ALWAYS;
    const t = selectTransition(chart, leafOf(prev.value as LoopState['value']), eventType, prev.context, event);
    if (t) taken.push(t.id);
    prev = next;
  });
  return taken;
}

/**
 * The ids of the transitions `step(state, event, config)` takes, in order. Empty when the event is ignored.
 *
 * @example
 * tracedTransitions(chart, stateInSampling, { type: 'model_done' }, config);
 * // ['sampling|model_done|0', 'afterSampling|always|2', 'exitLadder.promptTooLong|always|1', ...]
 */
export function tracedTransitions(chart: Chart, state: LoopState, event: LoopEvent, config: LoopConfig): string[] {
  if (state.status === 'done') return [];
  const snapshot = loopMachine.resolveState({
    value: state.value as never,
    context: toMachineContext(state.context, config),
  });
  const steps = getMicrosteps(loopMachine, snapshot, event).map(([s]) => s as unknown as MicroSnapshot);
  if (steps.length > 0 && steps[0]!.value === snapshot.value && steps[0]!.context === snapshot.context) return [];
  return chain(chart, snapshot as unknown as MicroSnapshot, steps, event, true);
}

/** The eventless transitions the run takes before its first wait (what `initialState()` runs). */
export function tracedInitialTransitions(chart: Chart, context: MachineContext): string[] {
  const steps = getInitialMicrosteps(loopMachine, context).map(([s]) => s as unknown as MicroSnapshot);
  if (steps.length === 0) return [];
  const initEvent = { type: 'xstate.init' } as unknown as LoopEvent;
  return chain(chart, steps[0]!, steps.slice(1), initEvent, false);
}
