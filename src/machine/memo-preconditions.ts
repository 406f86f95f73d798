/**
 * What the macrostep memo (`src/reducer/macrostep-memo.ts`) needs of a chart to be exact, checked from the chart
 * itself (as `protocolProblems` checks the effect protocol). The memo replays a recorded path of guard answers and
 * actions without xstate; that gives xstate's result only while the path depends on nothing but the state value,
 * the event type and the guards' answers. So the chart must have:
 * - no parallel states (one active leaf at a time: the state value is one path);
 * - no history states (where a transition goes would depend on the past, not the state value);
 * - no delayed transitions (`after`: timers, and the events they raise, are not in the path);
 * - no invoked or spawned children (their events and snapshots are not in the path);
 * - no wildcard event descriptors (`*`, `a.*`: the memo keys its paths by the exact event type);
 * - every guard and action named and implemented (a named action is a `loopAction`, which reports itself to the
 *   tracer; an inline function or a built-in action such as `raise` or `spawnChild` would be skipped by a replay).
 *
 * `memoPreconditionProblems(loopMachine)` is empty (a test holds it); the stepper refuses to build a memo otherwise.
 */
import { TurnloopError } from '../errors/turnloop-error.ts';

/** What this check reads of an xstate state node (the fields xstate's `StateNode` has). */
interface ChartNode {
  path: string[];
  type: string;
  states: Record<string, ChartNode>;
  entry: unknown[];
  exit: unknown[];
  invoke: unknown[];
  after: unknown[];
  always?: TransitionLike[];
  transitions: Map<string, TransitionLike[]>;
}

interface TransitionLike {
  eventType: string;
  actions: unknown[];
  guard?: unknown;
}

interface ChartLike {
  root: unknown;
  implementations: { actions: Record<string, unknown>; guards: Record<string, unknown> };
}

function* nodesOf(node: ChartNode): Generator<ChartNode> {
  yield node;
  for (const child of Object.values(node.states)) yield* nodesOf(child);
}

/** The name of a named action or guard (`'a'`, `{ type: 'a', params }`), or null for anything else. */
function nameOf(item: unknown): string | null {
  if (typeof item === 'string') return item;
  if (item !== null && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string') return (item as { type: string }).type;
  return null;
}

/** How an unnamed action or guard shows in a problem: a built-in's type (`xstate.raise`), else an inline function. */
function describeUnnamed(item: unknown): string {
  const type = (item as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? `the built-in ${type}` : 'an inline function';
}

function namedProblems(where: string, kind: 'action' | 'guard', items: readonly unknown[], implemented: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const item of items) {
    const name = nameOf(item);
    if (name === null) problems.push(`${where}: ${kind} is ${describeUnnamed(item)}, not a named ${kind}`);
    else if (!(name in implemented)) problems.push(`${where}: ${kind} '${name}' has no implementation`);
  }
  return problems;
}

/**
 * What keeps `machine` from meeting the memo's preconditions (see the module comment), one line per finding with
 * the state's path; empty for a chart the memo replays exactly.
 */
export function memoPreconditionProblems(machine: ChartLike): string[] {
  const { actions, guards } = machine.implementations;
  const problems: string[] = [];
  for (const node of nodesOf(machine.root as ChartNode)) {
    const path = node.path.length === 0 ? '(root)' : node.path.join('.');
    if (node.type === 'parallel') problems.push(`${path}: a parallel state (more than one active leaf)`);
    if (node.type === 'history') problems.push(`${path}: a history state`);
    if (node.after.length > 0) problems.push(`${path}: delayed transitions (after)`);
    if (node.invoke.length > 0) problems.push(`${path}: invokes a child actor`);
    problems.push(...namedProblems(`${path} entry`, 'action', node.entry, actions));
    problems.push(...namedProblems(`${path} exit`, 'action', node.exit, actions));
    const transitions = [...node.transitions.values()].flat().concat(node.always ?? []);
    for (const transition of transitions) {
      const event = transition.eventType === '' ? '(always)' : transition.eventType;
      if (event === '*' || event.endsWith('.*')) problems.push(`${path} on ${event}: a wildcard event`);
      if (event.startsWith('xstate.after.')) continue;
      problems.push(...namedProblems(`${path} on ${event}`, 'action', transition.actions, actions));
      if (transition.guard !== undefined) problems.push(...namedProblems(`${path} on ${event}`, 'guard', [transition.guard], guards));
    }
  }
  return problems;
}

/** A chart the macrostep memo cannot replay exactly (`memoPreconditionProblems` lists why). */
export class MemoPreconditionError extends TurnloopError {
  constructor(readonly problems: readonly string[]) {
    super('MEMO_PRECONDITIONS', `the macrostep memo cannot replay this chart exactly: ${problems.join('; ')}`);
    this.name = 'MemoPreconditionError';
  }
}

/** Throws `MemoPreconditionError` when `problems` (from `memoPreconditionProblems`) holds any. */
export function checkMemoPreconditions(problems: readonly string[]): void {
  if (problems.length > 0) throw new MemoPreconditionError(problems);
}
