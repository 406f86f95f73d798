/**
 * The loop statechart as a plain graph: the single source every export (JSON, Mermaid, SCXML, DOT), the generated
 * docs and the HTML viewer read. Pure: it only walks `loopMachine.root` (the state nodes), never runs the machine.
 *
 * Invariants:
 * - state ids are the node's path below the machine root, joined by `.` (`exitLadder.stopHooks`); the machine
 *   root itself is not a state here, and transitions declared on it have `source: null` ("in any state");
 * - transitions keep xstate's selection order: per state in document order, then per event as declared, so the
 *   first matching transition of a `(source, event)` group is the one xstate takes;
 * - eventless transitions (`always`, which `machine.toJSON()` omits) have `event: 'always'`;
 * - a transition with `target: null` is targetless: it runs its actions and stays in the state.
 *
 * @example
 * const chart = buildChart();
 * chart.transitions.filter((t) => t.continue).length; // 7
 */
import type { AnyStateNode } from 'xstate';
import { loopMachine, MACHINE_ID } from '../machine/loop-machine.ts';
import type { ContinueReason, TerminalReason } from '../data/outcomes.ts';

export type StateKind = 'atomic' | 'compound' | 'final';

/** A named guard or action, with its static params when it has any. */
export interface NamedRef {
  name: string;
  params?: Record<string, unknown>;
}

export interface ChartState {
  /** Path below the machine root joined by `.`, e.g. `contextPipeline.snip`. */
  id: string;
  /** The last path segment. */
  key: string;
  /** The enclosing compound state's id; null for top-level states. */
  parent: string | null;
  kind: StateKind;
  final: boolean;
  /** For compound states: the id of the initial child. */
  initial?: string;
  entry: NamedRef[];
  description?: string;
  /** For final states: the Terminal reason they stand for (`meta.terminal`). */
  terminal?: TerminalReason;
}

export interface ChartTransition {
  /** Stable within one machine: `<source>|<event>|<n>` (n counts within the (source, event) group). */
  id: string;
  /** The declaring state's id; null for transitions on the machine root (taken in any state). */
  source: string | null;
  /** The target state's id; null for a targetless transition. */
  target: string | null;
  /** The event type, or `'always'` for an eventless transition. */
  event: string;
  guard: NamedRef | null;
  actions: NamedRef[];
  /** The Continue reason of a transition back to `iterationStart` (`meta.continue`). */
  continue?: ContinueReason;
  description?: string;
}

export interface Chart {
  machineId: string;
  /** The top-level initial state. */
  initial: string;
  /** Every state node below the root, parents before children, in document order. */
  states: ChartState[];
  transitions: ChartTransition[];
}

export const ALWAYS = 'always';

/** The chart's id for a state node: its path below the root. */
function chartId(node: AnyStateNode): string {
  return node.path.join('.');
}

function toRef(value: unknown): NamedRef | null {
  if (typeof value === 'string') return { name: value };
  if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') {
    const { type, params } = value as { type: string; params?: unknown };
    return params && typeof params === 'object' ? { name: type, params: params as Record<string, unknown> } : { name: type };
  }
  if (typeof value === 'function') {
    // Inline functions have no name in the chart; STYLE asks for named guards and actions.
    return { name: value.name || '(inline)' };
  }
  return null;
}

function toRefs(values: readonly unknown[] | undefined): NamedRef[] {
  return (values ?? []).map(toRef).filter((ref): ref is NamedRef => ref !== null);
}

interface TransitionLike {
  target?: readonly AnyStateNode[] | undefined;
  guard?: unknown;
  actions?: readonly unknown[];
  meta?: Record<string, unknown>;
  description?: string;
}

function toTransition(source: AnyStateNode, event: string, index: number, t: TransitionLike): ChartTransition {
  const sourceId = source.parent ? chartId(source) : null;
  const target = t.target && t.target.length > 0 ? chartId(t.target[0]!) : null;
  const reason = t.meta?.['continue'];
  return {
    id: `${sourceId ?? MACHINE_ID}|${event}|${index}`,
    source: sourceId,
    target,
    event,
    guard: toRef(t.guard),
    actions: toRefs(t.actions),
    ...(typeof reason === 'string' ? { continue: reason as ContinueReason } : {}),
    ...(t.description ? { description: t.description } : {}),
  };
}

function walk(node: AnyStateNode, chart: Chart): void {
  if (node.parent) {
    const children = Object.values(node.states) as AnyStateNode[];
    const initialTarget = node.initial?.target?.[0] as AnyStateNode | undefined;
    const terminal = node.meta?.['terminal'];
    chart.states.push({
      id: chartId(node),
      key: node.key,
      parent: node.parent.parent ? chartId(node.parent) : null,
      kind: node.type === 'final' ? 'final' : children.length > 0 ? 'compound' : 'atomic',
      final: node.type === 'final',
      ...(initialTarget ? { initial: chartId(initialTarget) } : {}),
      entry: toRefs(node.entry),
      ...(node.description ? { description: node.description } : {}),
      ...(typeof terminal === 'string' ? { terminal: terminal as TerminalReason } : {}),
    });
  }
  for (const [event, list] of node.transitions) {
    list.forEach((t, i) => chart.transitions.push(toTransition(node, event, i, t as TransitionLike)));
  }
  (node.always ?? []).forEach((t, i) => chart.transitions.push(toTransition(node, ALWAYS, i, t as TransitionLike)));
  for (const child of Object.values(node.states) as AnyStateNode[]) walk(child, chart);
}

/**
 * Walks the loop machine (or another xstate machine) into a plain graph. Pure; the result is JSON.
 */
export function buildChart(machine: { root: AnyStateNode; id: string } = loopMachine): Chart {
  const root = machine.root;
  const initial = root.initial?.target?.[0] as AnyStateNode | undefined;
  const chart: Chart = { machineId: machine.id, initial: initial ? chartId(initial) : '', states: [], transitions: [] };
  walk(root, chart);
  return chart;
}

/** The chart id of the deepest active state of a state value, e.g. `{ exitLadder: 'stopHooks' }` → `exitLadder.stopHooks`. */
export function leafOf(value: string | Record<string, unknown>): string {
  if (typeof value === 'string') return value;
  const [key, child] = Object.entries(value)[0] ?? ['', ''];
  return child === undefined || (typeof child === 'object' && child !== null && Object.keys(child).length === 0)
    ? key
    : `${key}.${leafOf(child as string | Record<string, unknown>)}`;
}

/** Transitions that end an iteration: the 7 Continues (by `meta.continue`) and every transition into a final state. */
export function outcomeTransitions(chart: Chart): { continues: ChartTransition[]; terminals: ChartTransition[] } {
  const finals = new Set(chart.states.filter((s) => s.final).map((s) => s.id));
  return {
    continues: chart.transitions.filter((t) => t.continue !== undefined),
    terminals: chart.transitions.filter((t) => t.target !== null && finals.has(t.target)),
  };
}

/**
 * True for the unguarded last resort of a `(source, event)` group that has guarded alternatives: the "else" of
 * a first-match-wins list.
 */
export function isElseBranch(chart: Chart, t: ChartTransition): boolean {
  if (t.guard) return false;
  return chart.transitions.some((o) => o !== t && o.source === t.source && o.event === t.event && o.guard !== null);
}

/** A short human label: `event [guard] / action, action`. */
export function describeRef(ref: NamedRef): string {
  if (!ref.params) return ref.name;
  const args = Object.entries(ref.params).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${ref.name}(${args.join(', ')})`;
}
