/**
 * Graphviz DOT export (`dot -Tsvg statechart.dot > statechart.svg`). Pure, from the chart.
 *
 * Compound states are `cluster_` subgraphs. Graphviz edges join nodes, not clusters, so an edge into a compound
 * state points at its initial child with `lhead` (needs `compound=true`); an edge out of one (none today) would
 * use `ltail`. Targetless transitions are dashed self-loops; root transitions start at an `(any state)` node;
 * final states are double-bordered. Every id and label is a quoted DOT string.
 */
import { ALWAYS, buildChart, describeRef, isElseBranch, type Chart, type ChartState, type ChartTransition } from './graph.ts';

const ANY_STATE = '(any state)';
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
  const to = t.target === null ? from : landing(chart, t.target);
  const attrs = [`label=${dotString(dotLabel(chart, t))}`];
  if (t.target !== null && to !== t.target) attrs.push(`lhead=${dotString(`cluster_${t.target}`)}`);
  if (t.target === null) attrs.push('style=dashed');
  if (t.continue) attrs.push('color="#1d4ed8"', 'fontcolor="#1d4ed8"');
  return `  ${dotString(from)} -> ${dotString(to)} [${attrs.join(', ')}];`;
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
  for (const state of chart.states.filter((s) => s.parent === null)) lines.push(...stateLines(chart, state, '  '));
  lines.push(`  ${dotString(START)} -> ${dotString(landing(chart, chart.initial))};`);
  for (const t of chart.transitions) lines.push(edgeLine(chart, t));
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
