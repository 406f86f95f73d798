import { createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import { guards } from '../../../src/machine/guards.ts';
import { loopMachine } from '../../../src/machine/loop-machine.ts';
import { CONTINUE_NODE, exportDot } from '../../../src/viz/export-dot.ts';
import { exportJson, InlineFunctionError } from '../../../src/viz/export-json.ts';
import { exportMermaid, mermaidDiagrams, mermaidId } from '../../../src/viz/export-mermaid.ts';
import { exportScxml } from '../../../src/viz/export-scxml.ts';
import { buildChart } from '../../../src/viz/graph.ts';
import { parseDot } from './dot-grammar.ts';
import { allElements, parseXml } from './xml-check.ts';

const chart = buildChart();

function stateIds(machine: { root: { id: string; states: Record<string, unknown> } }): string[] {
  const ids: string[] = [];
  const walk = (node: { id: string; states: Record<string, unknown> }) => {
    ids.push(node.id);
    for (const child of Object.values(node.states)) walk(child as typeof node);
  };
  walk(machine.root);
  return ids;
}

describe('JSON export (xstate config)', () => {
  const json = JSON.parse(exportJson()) as { id: string; initial: string; states: Record<string, { always?: unknown[]; type?: string }> };

  it('is the machine config as data: every state literal, eventless transitions included, no functions', () => {
    expect(json.id).toBe('agentLoop');
    expect(json.initial).toBe('iterationStart');
    expect(json.states['turnLimit']!.always).toHaveLength(2);
    expect(json.states['turnLimit']!.always![1]).toMatchObject({ target: '#agentLoop.iterationStart', meta: { continue: 'next_turn' } });
    expect(Object.values(json.states).filter((s) => s.type === 'final')).toHaveLength(11);
    expect(stateIds(createMachine(json as never) as never)).toEqual(stateIds(loopMachine as never));
  });

  it('refuses a machine with an inline guard, naming where it is', () => {
    const inline = createMachine({ id: 'm', initial: 'a', states: { a: { on: { go: { guard: () => true, target: 'b' } } }, b: {} } });
    expect(() => exportJson(inline)).toThrow(InlineFunctionError);
    expect(() => exportJson(inline)).toThrow(/config\.states\.a\.on\.go\.guard/);
  });
});

describe('Mermaid export', () => {
  const diagrams = mermaidDiagrams();
  const all = diagrams.map((d) => d.text).join('\n');

  it('is a top-level diagram, the root (abort) diagram and one per compound state', () => {
    expect(diagrams.map((d) => d.name)).toEqual(['top', 'root', 'contextPipeline', 'exitLadder']);
    for (const d of diagrams) expect(d.text).toMatch(/^%%\{init: [^\n]*\}%%\nstateDiagram-v2\n/);
    expect(exportMermaid()).toBe(diagrams[0]!.text);
    expect(exportMermaid(chart, 'exitLadder')).toBe(diagrams[3]!.text);
    expect(() => exportMermaid(chart, 'nope')).toThrow(/one of top, root, contextPipeline, exitLadder/);
  });

  it('draws every state somewhere, and each compound collapsed (▸) at the top level', () => {
    const top = diagrams[0]!.text;
    expect(top).toContain('state "contextPipeline ▸" as contextPipeline');
    expect(top).toContain('state "exitLadder ▸" as exitLadder');
    expect(top).not.toContain('exitLadder__');
    for (const state of chart.states) {
      const id = state.final ? `${mermaidId(state.id)}__from__\\w+` : `${mermaidId(state.id)}\\b`;
      expect(all, state.id).toMatch(new RegExp(`state "(■ )?${state.key}( ▸)?" as ${id}`));
    }
  });

  it('labels every Continue with its reason, inside the compound with its guard, ending at the ↻ stub', () => {
    for (const t of chart.transitions.filter((t) => t.continue)) {
      const line = all.split('\n').find((l) => l.startsWith(`  ${mermaidId(t.source!)} --> continueStub`) && l.includes(`↻ ${t.continue}`));
      expect(line, t.continue).toBeDefined();
      if (t.guard) expect(line).toContain(`[${t.guard.name}]`);
    }
  });

  it('lists targetless transitions inside their state and draws each terminal next to the states ending there', () => {
    for (const t of chart.transitions.filter((t) => t.target === null && t.source !== null)) {
      expect(all).toContain(`  ${mermaidId(t.source!)} : ↺ ${t.event}`);
    }
    for (const t of chart.transitions.filter((t) => t.target !== null && chart.states.find((s) => s.id === t.target)?.final)) {
      expect(all, t.id).toMatch(new RegExp(`--> ${t.target}__from__`));
    }
    const labels = all.split('\n').filter((l) => l.includes(' --> ') && l.includes(' : ')).map((l) => l.slice(l.indexOf(' : ') + 3));
    for (const label of labels) expect(label.replace(/<br\/>/g, ' ')).not.toMatch(/[;#:<>{}]/);
  });
});

describe('SCXML export', () => {
  const text = exportScxml();
  const root = parseXml(text);
  const elements = allElements(root);

  it('is well-formed XML in the SCXML namespace', () => {
    expect(root.name).toBe('scxml');
    expect(root.attrs['xmlns']).toBe('http://www.w3.org/2005/07/scxml');
    expect(root.attrs['version']).toBe('1.0');
  });

  it('declares the ECMAScript datamodel and has exactly 11 <final> states, the terminals, at the top level', () => {
    expect(root.attrs['datamodel']).toBe('ecmascript');
    expect(root.children.filter((e) => e.name === 'final')).toHaveLength(11);
    const finals = elements.filter((e) => e.name === 'final');
    expect(finals).toHaveLength(11);
    expect(finals.map((f) => f.attrs['id']).sort()).toEqual(chart.states.filter((s) => s.final).map((s) => s.id).sort());
  });

  it('gives every state a unique id and every target an existing state', () => {
    const ids = elements.filter((e) => e.name === 'state' || e.name === 'final').map((e) => e.attrs['id']!);
    expect(new Set(ids).size).toBe(ids.length);
    for (const t of elements.filter((e) => e.name === 'transition' && e.attrs['target'])) expect(ids).toContain(t.attrs['target']);
  });

  it('writes guards as cond expressions that name a guard', () => {
    const conds = elements.filter((e) => e.name === 'transition' && e.attrs['cond']).map((e) => e.attrs['cond']!);
    expect(conds.length).toBe(chart.transitions.filter((t) => t.guard).length);
    for (const cond of conds) expect(Object.keys(guards)).toContain(/^tlGuard\(_event, (?:"|&quot;)(\w+)/.exec(cond)?.[1]);
  });

  it('writes eventless transitions without an event attribute', () => {
    const transitions = elements.filter((e) => e.name === 'transition');
    expect(transitions.filter((e) => !('event' in e.attrs))).toHaveLength(chart.transitions.filter((t) => t.event === 'always').length);
  });
});

describe('DOT export', () => {
  const text = exportDot();

  it('is accepted by the DOT grammar', () => {
    expect(() => parseDot(text)).not.toThrow();
  });

  it('declares every edge endpoint as a node and every lhead as a cluster', () => {
    const graph = parseDot(text);
    for (const edge of graph.edges) {
      expect(graph.nodes, edge.from).toContain(edge.from);
      expect(graph.nodes, edge.to).toContain(edge.to);
      if (edge.attrs['lhead']) expect(graph.subgraphs).toContain(edge.attrs['lhead']);
    }
    // One edge per transition with a target, one self-loop per state with targetless ones, and the start arrow.
    const loops = new Set(chart.transitions.filter((t) => t.target === null).map((t) => t.source)).size;
    expect(graph.edges).toHaveLength(chart.transitions.filter((t) => t.target !== null).length + loops + 1);
    expect(graph.edges.filter((e) => e.to === CONTINUE_NODE)).toHaveLength(7);
  });

  it('the grammar check rejects broken DOT', () => {
    expect(() => parseDot('digraph { a -> }')).toThrow(/expected/);
    expect(() => parseDot('digraph { a -- b }')).toThrow(/'--' in a digraph/);
    expect(() => parseDot('digraph { a [label="x" }')).toThrow();
  });
});
