/**
 * Which events the chart handles, read from it when this module is imported: every event type some state (or the
 * root) has a transition for, and, per state at rest, the event types it accepts itself or through an ancestor.
 * `step()` uses it to tell an unknown event (an error) from one the current state does not accept (ignored, and
 * said so: `StepResult.ignored`).
 */
import type { LoopEventType } from '../data/events.ts';
import { loopMachine } from './loop-machine.ts';

type Node = { path: string[]; type: string; states: Record<string, Node>; transitions: Map<string, unknown[]>; parent?: Node };

function* nodesOf(node: Node): Generator<Node> {
  yield node;
  for (const child of Object.values(node.states)) yield* nodesOf(child);
}

function acceptedBy(node: Node): LoopEventType[] {
  const events = new Set<string>();
  for (let n: Node | undefined = node; n; n = n.parent) for (const type of n.transitions.keys()) events.add(type);
  return [...events].sort() as LoopEventType[];
}

const root = loopMachine.root as unknown as Node;

/** Every event type the chart handles somewhere, as a lookup. */
const KNOWN_EVENT_TYPES: Readonly<Record<string, true>> = Object.freeze(
  Object.fromEntries([...nodesOf(root)].flatMap((node) => [...node.transitions.keys()].map((type) => [type, true as const]))),
);

/** The event types each atomic state accepts (final states accept none), by `a.b` path. */
const ACCEPTED: Readonly<Record<string, readonly LoopEventType[]>> = Object.freeze(
  Object.fromEntries(
    [...nodesOf(root)]
      .filter((node) => node.type === 'atomic' || node.type === 'final')
      .map((node) => [node.path.join('.'), Object.freeze(node.type === 'final' ? [] : acceptedBy(node))]),
  ),
);

/** Whether some state of the chart handles events of this type. */
export function isKnownEventType(type: string): boolean {
  return KNOWN_EVENT_TYPES[type] === true;
}

/** Every event type the chart handles, sorted. */
export function knownEventTypes(): LoopEventType[] {
  return Object.keys(KNOWN_EVENT_TYPES).sort() as LoopEventType[];
}

/** The event types a state (by `a.b` path) accepts; none for a final state or an unknown path. */
export function acceptedEventTypes(path: string): readonly LoopEventType[] {
  return ACCEPTED[path] ?? [];
}
