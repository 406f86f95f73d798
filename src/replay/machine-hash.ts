/**
 * A stable fingerprint of the statechart's structure. A session log records it; replaying a log under a machine
 * with a different fingerprint is refused (`MachineVersionMismatchError`) unless version skew is allowed.
 *
 * Invariant: the fingerprint covers every state id and type, initial states, entry/exit action names and params,
 * every transition (event, guard name and params, targets, action names and params, meta) in definition order,
 * and each state's meta except the effect protocol's declarations.
 * Implementations of guards and actions are NOT covered (they are functions); a change of behaviour behind an
 * unchanged name shows up as a `ReplayDivergenceError` instead.
 */
import { loopMachine } from '../machine/loop-machine.ts';
import { shortHash, stableStringify } from './stable-hash.ts';

interface NodeLike {
  id: string;
  type: string;
  initial?: { target?: NodeLike[] };
  entry?: unknown[];
  exit?: unknown[];
  meta?: unknown;
  states: Record<string, NodeLike>;
  transitions: Map<string, TransitionLike[]>;
  always?: TransitionLike[];
}

interface TransitionLike {
  guard?: unknown;
  target?: NodeLike[];
  actions?: unknown[];
  meta?: unknown;
  reenter?: boolean;
}

/** Names (and params) only: functions become their name so that the structure stays JSON. */
function named(item: unknown): unknown {
  if (typeof item === 'function') return `fn:${item.name || 'anonymous'}`;
  if (item === null || typeof item !== 'object') return item;
  const { type, params } = item as { type?: unknown; params?: unknown };
  return { type: named(type), params: params === undefined || typeof params === 'function' ? undefined : params };
}

function describeTransition(t: TransitionLike) {
  return {
    guard: t.guard === undefined ? null : named(t.guard),
    target: (t.target ?? []).map((node) => node.id),
    actions: (t.actions ?? []).map(named),
    meta: t.meta ?? null,
    reenter: t.reenter ?? false,
  };
}

/**
 * The meta that shapes the chart (`terminal`, `continue`), without the effect protocol's declarations (`awaits`,
 * `effects`): those describe what the states already do, and leaving them out keeps the fingerprint of logs
 * recorded before they were written down.
 */
function structuralMeta(meta: unknown): unknown {
  if (meta === undefined || meta === null) return null;
  const { awaits: _awaits, effects: _effects, ...rest } = meta as Record<string, unknown>;
  return Object.keys(rest).length === 0 ? null : rest;
}

function describeNode(node: NodeLike): unknown {
  return {
    id: node.id,
    type: node.type,
    initial: (node.initial?.target ?? []).map((t) => t.id),
    entry: (node.entry ?? []).map(named),
    exit: (node.exit ?? []).map(named),
    meta: structuralMeta(node.meta),
    on: [...node.transitions.entries()].map(([event, list]) => [event, list.map(describeTransition)]),
    always: (node.always ?? []).map(describeTransition),
    states: Object.values(node.states).map(describeNode),
  };
}

/** The structure the fingerprint is computed from (exposed for tests and `--debug` output). */
export function describeMachine(root: unknown = loopMachine.root): unknown {
  return describeNode(root as NodeLike);
}

let cached: string | undefined;

/** The fingerprint of the current `loopMachine` (16 hex digits, computed once). */
export function machineHash(): string {
  cached ??= shortHash(stableStringify(describeMachine()));
  return cached;
}
