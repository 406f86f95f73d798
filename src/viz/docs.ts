/**
 * The generated parts of `docs/statechart.md`: the Mermaid diagrams (top level, root, one per compound state) and the table of the 17 outcomes (7 Continue,
 * 11 Terminal) with the transitions that reach each, their guards and actions. Each part lives between
 * `<!-- BEGIN GENERATED: name -->` and `<!-- END GENERATED: name -->`; the prose around them is written by hand.
 * `scripts/gen-docs.ts` rewrites the parts; `test/unit/viz/docs.test.ts` fails when the committed doc is stale.
 * Pure.
 */
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../data/outcomes.ts';
import { mermaidDiagrams } from './export-mermaid.ts';
import { ALWAYS, buildChart, describeRef, outcomeTransitions, type Chart, type ChartTransition } from './graph.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

export const STATECHART_DOC = 'docs/statechart.md';
export const REGENERATE_HINT = 'npx tsx scripts/gen-docs.ts';

function code(text: string): string {
  return `\`${text.replace(/\|/g, '\\|')}\``;
}

function describeTransition(t: ChartTransition): { from: string; guard: string; actions: string } {
  const from = `${t.source === null ? '(any state)' : code(t.source)} · ${t.event === ALWAYS ? 'always' : code(t.event)}`;
  const guard = t.guard ? code(describeRef(t.guard)) : '—';
  const actions = t.actions.length > 0 ? t.actions.map((a) => code(describeRef(a))).join(', ') : '—';
  return { from, guard, actions };
}

function row(index: number, outcome: string, kind: string, transitions: ChartTransition[]): string {
  const parts = transitions.map(describeTransition);
  const cell = (pick: (p: ReturnType<typeof describeTransition>) => string) => parts.map(pick).join('<br>') || '—';
  return `| ${index} | ${code(outcome)} | ${kind} | ${cell((p) => p.from)} | ${cell((p) => p.guard)} | ${cell((p) => p.actions)} |`;
}

/** The outcome table: one row per Continue and Terminal reason, every transition that leads to it. */
export function outcomeTable(chart: Chart = buildChart()): string {
  const { continues, terminals } = outcomeTransitions(chart);
  const finalFor = new Map(chart.states.filter((s) => s.final).map((s) => [s.id, s.terminal ?? s.key]));
  const lines = [
    '| # | outcome | kind | from state · event | guard | actions |',
    '|---|---|---|---|---|---|',
  ];
  let index = 0;
  for (const reason of CONTINUE_REASONS) {
    lines.push(row(++index, reason, 'continue', continues.filter((t) => t.continue === reason)));
  }
  for (const reason of TERMINAL_REASONS) {
    lines.push(row(++index, reason, 'terminal', terminals.filter((t) => finalFor.get(t.target!) === reason)));
  }
  return lines.join('\n');
}

/** The generated blocks, by name. */
export function generatedBlocks(chart: Chart = buildChart()): Record<string, string> {
  return {
    diagram: mermaidDiagrams(chart)
      .map((d) => [`### ${d.title}`, '', '```mermaid', d.text.trimEnd(), '```'].join('\n'))
      .join('\n\n'),
    outcomes: outcomeTable(chart),
  };
}

/** Thrown when the doc lacks the markers of a generated block. */
export class MissingGeneratedBlockError extends TurnloopError {
  constructor(readonly block: string) {
    super('MISSING_GENERATED_BLOCK', `${STATECHART_DOC} has no '<!-- BEGIN GENERATED: ${block} -->' ... '<!-- END GENERATED: ${block} -->' markers`);
    this.name = 'MissingGeneratedBlockError';
  }
}

/** Rewrites every generated block of a doc; the rest is left as it is. Same input, same output. */
export function updateGeneratedBlocks(doc: string, blocks: Record<string, string> = generatedBlocks()): string {
  let out = doc;
  for (const [name, body] of Object.entries(blocks)) {
    const begin = `<!-- BEGIN GENERATED: ${name} -->`;
    const end = `<!-- END GENERATED: ${name} -->`;
    const from = out.indexOf(begin);
    const to = out.indexOf(end, from);
    if (from < 0 || to < 0) throw new MissingGeneratedBlockError(name);
    out = `${out.slice(0, from + begin.length)}\n${body}\n${out.slice(to)}`;
  }
  return out;
}
