/**
 * Graphviz DOT export (`dot -Tsvg statechart.dot > statechart.svg`). Pure, from the chart.
 *
 * Compound states are `cluster_` subgraphs. Graphviz edges join nodes, not clusters, so an edge into a compound
 * state points at its initial child with `lhead` (needs `compound=true`); an edge out of one (none today) would
 * use `ltail`. Root transitions start at an `(any state)` node; final states are double-bordered. Every id and
 * label is a quoted DOT string.
 *
 * Readability: all targetless transitions of a state (they record data and stay) are ONE dashed self-loop whose
 * label lists them, one per line, instead of a pile of loops; the Continue arrows end at a `↻ iterationStart` connector drawn
 * below the chart instead of climbing back to the top, so the graph reads top-down: the iteration start on top,
 * the exit ladder as a column, the Continues at the bottom. `test/unit/viz/layout-overlap.test.ts` checks Graphviz's own layout (`-Tjson`) for
 * labels that overlap another label or a node.
 */
import { ALWAYS, buildChart, describeRef, isElseBranch, type Chart, type ChartState, type ChartTransition } from './graph.ts';

const ANY_STATE = '(any state)';
/** Where the Continue arrows end: a connector standing for `iterationStart`, drawn below the chart. */
export const CONTINUE_NODE = '(continue)';
const START = '(start)';

/** A DOT quoted string. */
export function dotString(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

export function dotLabel(chart: Chart, t: ChartTransition): string {
  const guard = t.guard ? `[${describeRef(t.guard)}]` : isElseBranch(chart, t) ? '[else]' : '';
  const head = [t.event !== ALWAYS ? t.event : '', guard].filter(Boolean).join(' ');
  const actions = t.actions.length > 0 ? `/ ${t.actions.map((a) => a.name).join(', ')}` : '';
  const reason = t.continue ? `↻ ${t.continue}` : '';
  return [head, actions, reason].filter(Boolean).join('\n');
}

/** The atomic state an edge into `id` lands on: the state itself, or its initial descendant. */
function landing(chart: Chart, id: string): string {
  const state = chart.states.find((s) => s.id === id);
  return state?.initial ? landing(chart, state.initial) : id;
}

function stateLines(chart: Chart, state: ChartState, indent: string): string[] {
  const children = chart.states.filter((s) => s.parent === state.id);
  if (children.length === 0) {
    const attrs = [`label=${dotString(state.key)}`];
    if (state.final) attrs.push('peripheries=2', 'style="rounded,filled"', 'fillcolor="#fde8e8"', 'color="#b42318"');
    return [`${indent}${dotString(state.id)} [${attrs.join(', ')}];`];
  }
  const inner = `${indent}  `;
  return [
    `${indent}subgraph ${dotString(`cluster_${state.id}`)} {`,
    `${inner}label=${dotString(state.key)};`,
    `${inner}style="rounded,dashed";`,
    ...children.flatMap((child) => stateLines(chart, child, inner)),
    `${indent}}`,
  ];
}

function edgeLine(chart: Chart, t: ChartTransition): string {
  const from = t.source === null ? ANY_STATE : landing(chart, t.source);
  const to = t.continue ? CONTINUE_NODE : landing(chart, t.target!);
  const attrs = [`label=${dotString(dotLabel(chart, t))}`];
  if (!t.continue && to !== t.target) attrs.push(`lhead=${dotString(`cluster_${t.target}`)}`);
  if (t.continue) attrs.push('color="#1d4ed8"', 'fontcolor="#1d4ed8"');
  return `  ${dotString(from)} -> ${dotString(to)} [${attrs.join(', ')}];`;
}

/** One line per targetless transition: `event [guard] / actions`. */
function stayLine(chart: Chart, t: ChartTransition): string {
  return dotLabel(chart, t).replace(/\n/g, ' ');
}

/** The targetless transitions of one state as one dashed self-loop listing them (left-aligned lines). */
function stayLoop(chart: Chart, source: string | null, group: ChartTransition[]): string {
  const node = source === null ? ANY_STATE : landing(chart, source);
  // `\l` ends a left-justified line in a DOT label; each line is escaped as a DOT string on its own.
  const label = group.map((t) => dotString(stayLine(chart, t)).slice(1, -1) + '\\l').join('');
  return `  ${dotString(node)} -> ${dotString(node)} [label="${label}", style=dashed, color="#8c959f", fontcolor="#57606a"];`;
}

/**
 * The statechart as a DOT digraph.
 *
 * @example
 * exportDot().startsWith('digraph "agentLoop" {'); // true
 */
export function exportDot(chart: Chart = buildChart()): string {
  const lines = [
    `digraph ${dotString(chart.machineId)} {`,
    '  compound=true;',
    '  rankdir=TB;',
    '  node [shape=box, style=rounded, fontname="Helvetica"];',
    '  edge [fontname="Helvetica", fontsize=10];',
    `  ${dotString(START)} [shape=point, label=""];`,
  ];
  if (chart.transitions.some((t) => t.source === null)) lines.push(`  ${dotString(ANY_STATE)} [shape=plaintext];`);
  const continueTarget = chart.transitions.find((t) => t.continue)?.target;
  if (continueTarget) {
    const label = `↻ ${chart.states.find((st) => st.id === continueTarget)?.key ?? continueTarget}`;
    lines.push(`  ${dotString(CONTINUE_NODE)} [label=${dotString(label)}, style="rounded,dashed", color="#1d4ed8", fontcolor="#1d4ed8"];`);
  }
  for (const state of chart.states.filter((s) => s.parent === null)) lines.push(...stateLines(chart, state, '  '));
  lines.push(`  ${dotString(START)} -> ${dotString(landing(chart, chart.initial))};`);
  const stays = new Map<string | null, ChartTransition[]>();
  for (const t of chart.transitions) {
    if (t.target !== null) lines.push(edgeLine(chart, t));
    else stays.set(t.source, [...(stays.get(t.source) ?? []), t]);
  }
  for (const [source, group] of stays) lines.push(stayLoop(chart, source, group));
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
