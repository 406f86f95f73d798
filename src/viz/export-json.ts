/**
 * XState/Stately JSON export: `loopMachine.toJSON()` (the machine definition the Stately inspector and visualizer
 * read) augmented with each state node's eventless transitions under `always`, in the same shape as the entries
 * of `on` (`target: ['#id']`, `source: '#id'`, named `guard`, `actions`, `meta`). xstate 5's `toJSON()` drops
 * `always`, which would lose most of the loop's control flow (the context pipeline and the exit ladder are
 * eventless).
 *
 * A definition is not a `createMachine` config (its `initial` is a transition object, targets are resolved ids);
 * `configFromDefinition` turns it back into one, so the export round-trips:
 * `createMachine(configFromDefinition(definition))` has the same states and transitions as the loop machine.
 * Pure.
 */
import type { AnyStateNode } from 'xstate';
import { loopMachine } from '../machine/loop-machine.ts';

/** One state node of the exported definition (the fields this module reads or adds). */
export interface StateDefinitionJson {
  id: string;
  key: string;
  type: string;
  initial?: { target?: string[] };
  states?: Record<string, StateDefinitionJson>;
  on?: Record<string, TransitionJson[]>;
  always?: TransitionJson[];
  entry?: unknown[];
  exit?: unknown[];
  meta?: Record<string, unknown>;
  description?: string;
  [key: string]: unknown;
}

export interface TransitionJson {
  target?: string[];
  guard?: unknown;
  actions?: unknown[];
  meta?: Record<string, unknown>;
  description?: string;
  reenter?: boolean;
  [key: string]: unknown;
}

interface JsonableTransition {
  toJSON?: () => unknown;
}

/** Adds `always` to every node of a `toJSON()` definition, walking the live state nodes alongside. */
function addEventless(node: AnyStateNode, json: StateDefinitionJson): StateDefinitionJson {
  const always = (node.always ?? []).map((t) => {
    const plain = (t as JsonableTransition).toJSON?.() ?? t;
    return JSON.parse(JSON.stringify(plain)) as TransitionJson;
  });
  const states: Record<string, StateDefinitionJson> = {};
  for (const [key, child] of Object.entries(node.states) as Array<[string, AnyStateNode]>) {
    states[key] = addEventless(child, (json.states ?? {})[key]!);
  }
  return { ...json, states, ...(always.length > 0 ? { always } : {}) };
}

/**
 * The machine definition as JSON data, eventless transitions included.
 *
 * @example
 * const definition = machineDefinition();
 * definition.states.turnLimit.always.length; // 2
 */
export function machineDefinition(machine: { root: AnyStateNode; toJSON(): unknown } = loopMachine): StateDefinitionJson {
  const json = JSON.parse(JSON.stringify(machine.toJSON())) as StateDefinitionJson;
  return addEventless(machine.root, json);
}

/** `turnloop export --format json`: the definition, pretty-printed. */
export function exportJson(machine: { root: AnyStateNode; toJSON(): unknown } = loopMachine): string {
  return `${JSON.stringify(machineDefinition(machine), null, 2)}\n`;
}

function transitionConfig(t: TransitionJson): Record<string, unknown> {
  return {
    ...(t.target && t.target.length > 0 ? { target: t.target.length === 1 ? t.target[0] : t.target } : {}),
    ...(t.guard !== undefined ? { guard: t.guard } : {}),
    ...(t.actions && t.actions.length > 0 ? { actions: t.actions } : {}),
    ...(t.meta ? { meta: t.meta } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.reenter ? { reenter: true } : {}),
  };
}

function stateConfig(json: StateDefinitionJson, isRoot: boolean): Record<string, unknown> {
  const states = Object.entries(json.states ?? {});
  const on = Object.entries(json.on ?? {}).map(([event, list]) => [event, list.map(transitionConfig)] as const);
  const initial = json.initial?.target?.[0];
  return {
    // Children keep their definition ids so that `#agentLoop.x` targets resolve as they did.
    ...(isRoot ? {} : { id: json.id }),
    ...(json.type === 'final' || json.type === 'parallel' || json.type === 'history' ? { type: json.type } : {}),
    ...(initial ? { initial: initial.slice(initial.lastIndexOf('.') + 1) } : {}),
    ...(json.entry && json.entry.length > 0 ? { entry: json.entry } : {}),
    ...(json.exit && json.exit.length > 0 ? { exit: json.exit } : {}),
    ...(json.meta ? { meta: json.meta } : {}),
    ...(json.description ? { description: json.description } : {}),
    ...(on.length > 0 ? { on: Object.fromEntries(on) } : {}),
    ...(json.always && json.always.length > 0 ? { always: json.always.map(transitionConfig) } : {}),
    ...(states.length > 0 ? { states: Object.fromEntries(states.map(([key, child]) => [key, stateConfig(child, false)])) } : {}),
  };
}

/**
 * Turns an exported definition back into a `createMachine` config (guards and actions stay names; supply
 * implementations with `setup()` to run it).
 */
export function configFromDefinition(definition: StateDefinitionJson): Record<string, unknown> {
  return { id: definition.id, ...stateConfig(definition, true) };
}
