/**
 * Mermaid `stateDiagram-v2` export, the diagrams GitHub renders in `docs/statechart.md`. Pure, from the chart.
 *
 * One diagram of the whole loop is too wide to read at GitHub's width, so there are several:
 * - the top level, each compound state (`contextPipeline`, `exitLadder`) collapsed to one node; transitions
 *   between the same two nodes are one arrow with one label line each;
 * - the machine root's transitions (`(any state)`, taken whatever the state) with the states only they reach;
 * - one per compound state: its children, with the states its transitions leave to drawn as plain stubs.
 * In all, the Continue arrows end at a `↻ iterationStart` stub (so the diagram reads top-down instead of
 * climbing back to the top), and targetless transitions (they record data and stay) are listed inside their
 * state's box, `↺ event` (Mermaid draws self-loop labels over the neighbouring nodes).
 *
 * Final states (■, styled `terminal`) are drawn once per state that ends in them, next to it, and not joined
 * to a common `[*]` end: shared end nodes pull long arrows across the diagram and make it twice as wide.
 *
 * Node ids are chart ids with `.` replaced by `__` (Mermaid ids cannot hold dots), shown under their short key.
 * Labels are `event [guard] ↻ continue_reason`; `always` is left out (an arrow without an event is eventless);
 * actions are not drawn (the table in the doc and the other exports have them).
 */
import { ALWAYS, buildChart, describeRef, isElseBranch, type Chart, type ChartState, type ChartTransition } from './graph.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

const ANY_STATE = 'anyState';
const CONTINUE_STUB = 'continueStub';

export interface MermaidDiagram {
  /** `top` or the compound state's id. */
  name: string;
  title: string;
  text: string;
}

/** A Mermaid-safe node id for a chart id. */
export function mermaidId(chartId: string): string {
  return chartId.replace(/\./g, '__');
}

/** Characters Mermaid gives meaning to inside a label (`;` ends a statement, `#` starts an entity, `:` splits). */
function safeLabel(text: string): string {
  return text.replace(/[;#:<>{}"]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** `event [guard] ↻ reason`; `[else]` marks the unguarded fallback of a guarded group. */
export function transitionLabel(chart: Chart, t: ChartTransition): string {
  const parts: string[] = [];
  if (t.event !== ALWAYS) parts.push(t.event);
  if (t.guard) parts.push(`[${describeRef(t.guard)}]`);
  else if (isElseBranch(chart, t)) parts.push('[else]');
  if (t.continue) parts.push(`↻ ${t.continue}`);
  return parts.join(' ');
}

/** Label lines joined with Mermaid's line break. */
const joinLines = (lines: string[]) => [...new Set(lines.map(safeLabel).filter(Boolean))].join('<br/>');

function stateOf(chart: Chart, id: string): ChartState | undefined {
  return chart.states.find((s) => s.id === id);
}

/** The state that stands for `id` in a diagram of `scope`'s children (null: the top level). */
function shownAs(chart: Chart, id: string, scope: string | null): string | null {
  let state = stateOf(chart, id);
  while (state && state.parent !== scope) {
    if (state.parent === null) return null;
    state = stateOf(chart, state.parent);
  }
  return state ? state.id : null;
}

interface Edge {
  from: string;
  to: string;
  lines: string[];
}

function addEdge(edges: Edge[], from: string, to: string, line: string): void {
  const existing = edges.find((e) => e.from === from && e.to === to);
  if (!existing) edges.push({ from, to, lines: [line] });
  else if (!existing.lines.includes(line)) existing.lines.push(line);
}

/**
 * The top-level states only the machine root's transitions lead to (the abort path: `abortingSampling`,
 * `drainingAbortedTools`, `aborted_streaming`): they get their own diagram, with `(any state)`.
 */
export function rootOnlyStates(chart: Chart): Set<string> {
  const set = new Set<string>();
  const topOf = (id: string) => shownAs(chart, id, null);
  let grew = true;
  while (grew) {
    grew = false;
    for (const s of chart.states.filter((st) => st.parent === null && !set.has(st.id))) {
      const incoming = chart.transitions.filter((t) => t.target !== null && topOf(t.target) === s.id && (t.source === null || topOf(t.source) !== s.id));
      if (incoming.length > 0 && incoming.every((t) => t.source === null || set.has(topOf(t.source)!))) {
        set.add(s.id);
        grew = true;
      }
    }
  }
  return set;
}

/**
 * One diagram: the children of `scope` (null: the top-level states), the edges among them, and stubs for the
 * states outside that its transitions lead to. At the top level, `part` picks the main loop or the states only
 * the root's transitions reach.
 */
function diagram(chart: Chart, scope: string | null, part: 'loop' | 'root' = 'loop'): string {
  const rootOnly = scope === null ? rootOnlyStates(chart) : new Set<string>();
  const inside = chart.states.filter((s) => s.parent === scope && (scope !== null || rootOnly.has(s.id) === (part === 'root')));
  const insideIds = new Set(inside.map((s) => s.id));
  const edges: Edge[] = [];
  const stubs = new Map<string, string>();
  const finalCopies = new Map<string, string>();
  const stays = new Map<string, string[]>();
  let usesAny = false;
  let usesContinue = false;
  for (const t of chart.transitions) {
    const from = t.source === null ? (scope === null && part === 'root' ? ANY_STATE : null) : shownAs(chart, t.source, scope);
    if (from === null || (from !== ANY_STATE && !insideIds.has(from))) continue;
    if (from === ANY_STATE) usesAny = true;
    const fromId = from === ANY_STATE ? ANY_STATE : mermaidId(from);
    if (t.target === null) {
      // Listed inside the state's box: Mermaid places self-loop labels over their neighbours.
      stays.set(fromId, [...(stays.get(fromId) ?? []), t.event]);
      continue;
    }
    // From a collapsed compound only the event is shown (its own diagram has the guards).
    const collapsed = t.source !== from;
    if (t.continue) {
      usesContinue = true;
      // From a collapsed compound only the reason is shown (its diagram has the event and guard).
      addEdge(edges, fromId, CONTINUE_STUB, collapsed ? `↻ ${t.continue}` : transitionLabel(chart, t));
      continue;
    }
    const shown = shownAs(chart, t.target, scope);
    const to = shown !== null && insideIds.has(shown) ? shown : null;
    if (to !== null && to === from && t.source !== null && t.source !== from) continue; // inside a collapsed state
    const final = stateOf(chart, t.target)?.final === true;
    if (final) {
      // A terminal is drawn once per state that can end there, next to it: one shared node would pull long
      // arrows across the diagram (blockingCheck and turnLimit both end in max_turns).
      const copy = `${mermaidId(t.target)}__from__${fromId}`;
      finalCopies.set(copy, stateOf(chart, t.target)!.key);
      addEdge(edges, fromId, copy, collapsed ? (t.event === ALWAYS ? '' : t.event) : transitionLabel(chart, t));
    } else if (to !== null) {
      addEdge(edges, fromId, mermaidId(to), collapsed ? (t.event === ALWAYS ? '' : t.event) : transitionLabel(chart, t));
    } else {
      stubs.set(t.target, stateOf(chart, t.target)?.key ?? t.target);
      addEdge(edges, fromId, mermaidId(t.target), transitionLabel(chart, t));
    }
  }
  const lines = ['%%{init: {"state": {"nodeSpacing": 24, "rankSpacing": 36}}}%%', 'stateDiagram-v2'];
  lines.push('  classDef terminal fill:#fde8e8,stroke:#b42318,color:#7a1c12');
  lines.push('  classDef compound fill:#f6f8fa,stroke:#57606a,stroke-width:2px');
  lines.push('  classDef stub fill:#ffffff,stroke:#8c959f,stroke-dasharray:4 3,color:#57606a');
  lines.push('  classDef continue fill:#e8f1fd,stroke:#1d4ed8,color:#1d4ed8');
  const initial = scope === null ? (part === 'loop' ? chart.initial : undefined) : stateOf(chart, scope)?.initial;
  if (initial) lines.push(`  [*] --> ${mermaidId(initial)}`);
  for (const s of inside.filter((st) => !st.final)) lines.push(`  state "${safeLabel(s.kind === 'compound' ? `${s.key} ▸` : s.key)}" as ${mermaidId(s.id)}`);
  for (const [id, key] of finalCopies) lines.push(`  state "■ ${safeLabel(key)}" as ${id}`);
  for (const [id, key] of stubs) lines.push(`  state "${safeLabel(key)}" as ${mermaidId(id)}`);
  if (usesAny) lines.push(`  state "(any state)" as ${ANY_STATE}`);
  if (usesContinue) lines.push(`  state "↻ ${safeLabel(stateOf(chart, chart.initial)?.key ?? chart.initial)}" as ${CONTINUE_STUB}`);
  for (const [id, events] of stays) for (const event of new Set(events)) lines.push(`  ${id} : ↺ ${safeLabel(event)}`);
  for (const e of edges) {
    const label = joinLines(e.lines);
    lines.push(`  ${e.from} --> ${e.to}${label ? ` : ${label}` : ''}`);
  }
  if (finalCopies.size > 0) lines.push(`  class ${[...finalCopies.keys()].join(',')} terminal`);
  const compounds = inside.filter((s) => s.kind === 'compound').map((s) => mermaidId(s.id));
  if (compounds.length > 0) lines.push(`  class ${compounds.join(',')} compound`);
  const plainStubs = [...stubs.keys()].map(mermaidId);
  if (plainStubs.length > 0) lines.push(`  class ${plainStubs.join(',')} stub`);
  if (usesContinue) lines.push(`  class ${CONTINUE_STUB} continue`);
  return `${lines.join('\n')}\n`;
}

/** The top-level diagram, the root's (abort) diagram and one per compound state, in document order. */
export function mermaidDiagrams(chart: Chart = buildChart()): MermaidDiagram[] {
  const compounds = chart.states.filter((s) => s.kind === 'compound');
  const root = chart.transitions.some((t) => t.source === null)
    ? [{ name: 'root', title: 'Transitions taken in any state (the machine root)', text: diagram(chart, null, 'root') }]
    : [];
  return [
    { name: 'top', title: 'The loop (compound states collapsed, ▸)', text: diagram(chart, null) },
    ...root,
    ...compounds.map((s) => ({ name: s.id, title: `Inside \`${s.id}\`${s.description ? ` (${s.description})` : ''}`, text: diagram(chart, s.id) })),
  ];
}

/**
 * One diagram as Mermaid text by name (`top`, `root`, or a compound state's id); see `mermaidDiagrams`.
 *
 * @example
 * exportMermaid().startsWith('stateDiagram-v2'); // true
 */
export function exportMermaid(chart: Chart = buildChart(), name = 'top'): string {
  const found = mermaidDiagrams(chart).find((d) => d.name === name);
  if (!found) throw new UnknownDiagramError(name, mermaidDiagrams(chart).map((d) => d.name));
  return found.text;
}

/** `exportMermaid` was asked for a diagram that does not exist. */
export class UnknownDiagramError extends TurnloopError {
  constructor(
    readonly diagram: string,
    readonly known: string[],
  ) {
    super('UNKNOWN_DIAGRAM', `no Mermaid diagram '${diagram}': one of ${known.join(', ')}`);
    this.name = 'UnknownDiagramError';
  }
}
