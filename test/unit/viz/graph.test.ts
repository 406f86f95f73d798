import { describe, expect, it } from 'vitest';
import { actionImplementations } from '../../../src/machine/actions/index.ts';
import { guards } from '../../../src/machine/guards.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../../src/data/outcomes.ts';
import { ALWAYS, buildChart, leafOf, outcomeTransitions } from '../../../src/viz/graph.ts';

describe('the chart walker', () => {
  const chart = buildChart();

  it('finds the 7 Continue transitions by meta.continue, each back to iterationStart', () => {
    const { continues } = outcomeTransitions(chart);
    expect(continues.map((t) => t.continue).sort()).toEqual([...CONTINUE_REASONS].sort());
    expect(new Set(continues.map((t) => t.target))).toEqual(new Set(['iterationStart']));
  });

  it('has exactly the 11 terminals as final states', () => {
    const finals = chart.states.filter((s) => s.final);
    expect(finals.map((s) => s.terminal).sort()).toEqual([...TERMINAL_REASONS].sort());
    expect(finals.every((s) => s.kind === 'final' && s.parent === null)).toBe(true);
  });

  it('keeps the eventless transitions that toJSON() drops', () => {
    const always = chart.transitions.filter((t) => t.event === ALWAYS);
    expect(always.length).toBeGreaterThan(30);
    expect(always.find((t) => t.source === 'turnLimit' && t.continue === 'next_turn')).toBeDefined();
  });

  it('models compound states with parents and initial children', () => {
    const pipeline = chart.states.find((s) => s.id === 'contextPipeline')!;
    expect(pipeline).toMatchObject({ kind: 'compound', initial: 'contextPipeline.toolResultBudget' });
    expect(chart.states.find((s) => s.id === 'exitLadder.stopHooks')).toMatchObject({ parent: 'exitLadder', kind: 'atomic' });
  });

  it('names every guard and action after an implementation, with static params kept', () => {
    for (const t of chart.transitions) {
      if (t.guard) expect(Object.keys(guards)).toContain(t.guard.name);
      for (const a of t.actions) expect(Object.keys(actionImplementations)).toContain(a.name);
    }
    const layer = chart.transitions.find((t) => t.source === 'contextPipeline.snip' && t.guard);
    expect(layer?.guard).toEqual({ name: 'isLayerEnabled', params: { feature: 'historySnip' } });
  });

  it('gives transitions on the machine root a null source (taken in any state)', () => {
    const abort = chart.transitions.find((t) => t.source === null && t.event === 'abort');
    expect(abort?.target).toBe('abortingSampling');
  });

  it('gives every transition a unique id', () => {
    expect(new Set(chart.transitions.map((t) => t.id)).size).toBe(chart.transitions.length);
  });

  it('maps a state value to its active leaf', () => {
    expect(leafOf('sampling')).toBe('sampling');
    expect(leafOf({ exitLadder: 'stopHooks' })).toBe('exitLadder.stopHooks');
  });
});
