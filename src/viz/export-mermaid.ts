/**
 * Mermaid `stateDiagram-v2` export, the diagram GitHub renders in `docs/statechart.md`. Pure, from the chart.
 *
 * Choices, so the diagram stays readable and parses:
 * - compound states (`contextPipeline`, `exitLadder`) are `state X { ... }` blocks; node ids are chart ids with
 *   `.` replaced by `__` (Mermaid ids cannot contain dots), shown under their short key;
 * - labels are `event [guard] ↻ continue_reason`; `always` is left out (an unlabelled or guard-only arrow is
 *   eventless); actions are not drawn (see the generated table and the other exports);
 * - targetless transitions (they only record data) are not drawn; transitions on the machine root start from an
 *   `(any state)` node;
 * - the 10 final states are styled `terminal` and point to `[*]`.
 */
import { ALWAYS, buildChart, describeRef, isElseBranch, type Chart, type ChartState, type ChartTransition } from './graph.ts';

const ANY_STATE = 'anyState';

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

function stateLines(chart: Chart, state: ChartState, indent: string): string[] {
  const id = mermaidId(state.id);
  const children = chart.states.filter((s) => s.parent === state.id);
  if (children.length === 0) return [`${indent}state "${safeLabel(state.key)}" as ${id}`];
  const inner = indent + '  ';
  const lines = [`${indent}state "${safeLabel(state.key)}" as ${id} {`];
  if (state.initial) lines.push(`${inner}[*] --> ${mermaidId(state.initial)}`);
  for (const child of children) lines.push(...stateLines(chart, child, inner));
  // Edges between two children of this block are drawn inside it, so Mermaid lays them out with the block.
  for (const t of chart.transitions) {
    if (t.target === null || t.source === null) continue;
    if (parentOf(chart, t.source) === state.id && parentOf(chart, t.target) === state.id) lines.push(edgeLine(chart, t, inner));
  }
  lines.push(`${indent}}`);
  return lines;
}

function parentOf(chart: Chart, id: string): string | null {
  return chart.states.find((s) => s.id === id)?.parent ?? null;
}

function edgeLine(chart: Chart, t: ChartTransition, indent: string): string {
  const label = safeLabel(transitionLabel(chart, t));
  const from = t.source === null ? ANY_STATE : mermaidId(t.source);
  return `${indent}${from} --> ${mermaidId(t.target!)}${label ? ` : ${label}` : ''}`;
}

/**
 * The statechart as Mermaid text.
 *
 * @example
 * exportMermaid().startsWith('stateDiagram-v2'); // true
 */
export function exportMermaid(chart: Chart = buildChart()): string {
  const lines = ['stateDiagram-v2'];
  lines.push('  classDef terminal fill:#fde8e8,stroke:#b42318,color:#7a1c12');
  lines.push('  classDef continue fill:#e8f1fd,stroke:#1d4ed8');
  lines.push(`  [*] --> ${mermaidId(chart.initial)}`);
  for (const state of chart.states.filter((s) => s.parent === null)) lines.push(...stateLines(chart, state, '  '));
  if (chart.transitions.some((t) => t.source === null && t.target !== null)) lines.push(`  state "(any state)" as ${ANY_STATE}`);
  for (const t of chart.transitions) {
    if (t.target === null) continue;
    const inner = t.source !== null && parentOf(chart, t.source) !== null && parentOf(chart, t.source) === parentOf(chart, t.target);
    if (!inner) lines.push(edgeLine(chart, t, '  '));
  }
  const finals = chart.states.filter((s) => s.final);
  for (const state of finals) lines.push(`  ${mermaidId(state.id)} --> [*]`);
  lines.push(`  class ${finals.map((s) => mermaidId(s.id)).join(',')} terminal`);
  const start = chart.transitions.find((t) => t.continue)?.target;
  if (start) lines.push(`  class ${mermaidId(start)} continue`);
  return `${lines.join('\n')}\n`;
}
