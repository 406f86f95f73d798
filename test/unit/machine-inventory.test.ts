/**
 * The statechart is the map (STYLE): the 10 Terminals are its final states and the 7 Continues its only
 * transitions back to `iterationStart`, each labelled `meta.continue`. Guards and actions are referenced by
 * name only, so they survive JSON export and show in diagrams.
 *
 * Walks `loopMachine.root` rather than `toJSON()`, which omits `always` transitions.
 */
import { describe, expect, it } from 'vitest';
import { actionImplementations } from '../../src/machine/actions/index.ts';
import { guards } from '../../src/machine/guards.ts';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import { CONTINUE_REASONS, TERMINAL_REASONS } from '../../src/data/outcomes.ts';

type Node = (typeof loopMachine)['root'];
type Transition = { eventType: string; guard?: unknown; actions: readonly unknown[]; target?: readonly Node[]; meta?: Record<string, unknown> };

function allNodes(node: Node): Node[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as Node))];
}

function transitionsOf(node: Node): Transition[] {
  const onEvents = [...node.transitions.values()].flat() as unknown as Transition[];
  return [...onEvents, ...((node.always ?? []) as unknown as Transition[])];
}

const nodes = allNodes(loopMachine.root);
const transitions = nodes.flatMap((node) => transitionsOf(node).map((t) => ({ from: node.id, ...t })));

/** The name of a guard/action reference, or null for an inline function. */
function referenceName(ref: unknown): string | null {
  if (typeof ref === 'string') return ref;
  if (ref && typeof ref === 'object' && typeof (ref as { type?: unknown }).type === 'string') return (ref as { type: string }).type;
  return null;
}

describe('machine inventory (docs/loop.md §5)', () => {
  it('has exactly 11 final states (10 and max_budget_usd), named after TERMINAL_REASONS', () => {
    const finals = nodes.filter((node) => node.type === 'final');
    expect(finals.map((node) => node.key).sort()).toEqual([...TERMINAL_REASONS].sort());
    for (const node of finals) expect(node.parent).toBe(loopMachine.root);
  });

  it('has exactly 7 transitions to iterationStart, each labelled with a distinct Continue reason', () => {
    const continues = transitions.filter((t) => t.target?.some((target) => target.key === 'iterationStart'));
    expect(continues).toHaveLength(7);
    const reasons = continues.map((t) => t.meta?.continue);
    expect([...reasons].sort()).toEqual([...CONTINUE_REASONS].sort());
    expect(new Set(reasons).size).toBe(7);
  });

  it('labels no other transition as a Continue', () => {
    const labelled = transitions.filter((t) => t.meta?.continue !== undefined);
    expect(labelled.every((t) => t.target?.[0]?.key === 'iterationStart')).toBe(true);
  });

  it('references every guard and action by a registered name (no inline functions)', () => {
    const guardRefs = transitions.flatMap((t) => (t.guard === undefined ? [] : [t.guard]));
    const actionRefs = [
      ...transitions.flatMap((t) => t.actions),
      ...nodes.flatMap((node) => [...node.entry, ...node.exit]),
    ];
    expect(guardRefs.length).toBeGreaterThan(20);
    for (const ref of guardRefs) expect(Object.keys(guards)).toContain(referenceName(ref));
    for (const ref of actionRefs) expect(Object.keys(actionImplementations)).toContain(referenceName(ref));
  });

  it('uses every registered guard and action somewhere', () => {
    const used = new Set(
      [...transitions.flatMap((t) => [t.guard, ...t.actions]), ...nodes.flatMap((node) => [...node.entry, ...node.exit])].map(referenceName),
    );
    expect(Object.keys(guards).filter((name) => !used.has(name))).toEqual([]);
    expect(Object.keys(actionImplementations).filter((name) => !used.has(name))).toEqual([]);
  });
});
