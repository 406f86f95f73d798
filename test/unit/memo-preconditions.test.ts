/**
 * The macrostep memo's preconditions, checked from the chart (src/machine/memo-preconditions.ts): the loop machine
 * meets them, and a copy of it that breaks one (a parallel or history state, a delay, an invoked child, a wildcard
 * event, an inline or unimplemented action or guard) is named with the state where it happens. The stepper refuses
 * to build a memo for a chart that fails (`createStepMemo`).
 */
import { setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import { checkMemoPreconditions, MemoPreconditionError, memoPreconditionProblems } from '../../src/machine/memo-preconditions.ts';

type Config = { states: Record<string, Record<string, unknown>> } & Record<string, unknown>;
const base = loopMachine.config as unknown as Config;
const { guards, actions } = loopMachine.implementations;

/** The loop chart with `states` changed (a copy: the loop machine itself is never touched). */
function chartWith(states: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}) {
  const chart = { ...base, states: { ...base.states, ...states } };
  return setup({ guards, actions, ...extra } as never).createMachine(chart as never) as unknown as Parameters<typeof memoPreconditionProblems>[0];
}

const sampling = base.states['sampling']!;

describe('the macrostep memo preconditions', () => {
  it('hold for the loop machine', () => {
    expect(memoPreconditionProblems(loopMachine)).toEqual([]);
  });

  it('name a parallel state', () => {
    const problems = memoPreconditionProblems(chartWith({ side: { type: 'parallel', states: { a: {}, b: {} } } }));
    expect(problems).toContain('side: a parallel state (more than one active leaf)');
  });

  it('name a history state', () => {
    expect(memoPreconditionProblems(chartWith({ back: { type: 'history' } }))).toContain('back: a history state');
  });

  it('name a delayed transition', () => {
    const problems = memoPreconditionProblems(chartWith({ sampling: { ...sampling, after: { 1000: { target: 'sampling' } } } }));
    expect(problems).toContain('sampling: delayed transitions (after)');
  });

  it('name an invoked child', () => {
    const problems = memoPreconditionProblems(chartWith({ sampling: { ...sampling, invoke: { src: 'caller' } } }, { actors: { caller: { transition: () => undefined } } }));
    expect(problems).toContain('sampling: invokes a child actor');
  });

  it('name a wildcard event', () => {
    const on = { ...(sampling['on'] as Record<string, unknown>), '*': { actions: 'noteAbort' } };
    expect(memoPreconditionProblems(chartWith({ sampling: { ...sampling, on } }))).toContain('sampling on *: a wildcard event');
  });

  it('name an inline action, an unimplemented action and an inline guard', () => {
    const on = {
      ...(sampling['on'] as Record<string, unknown>),
      model_done: [{ guard: () => true, target: 'sampling', actions: ['noteAbort', () => undefined, 'notAnAction'] }],
    };
    const problems = memoPreconditionProblems(chartWith({ sampling: { ...sampling, on } }));
    expect(problems).toEqual([
      'sampling on model_done: action is an inline function, not a named action',
      "sampling on model_done: action 'notAnAction' has no implementation",
      'sampling on model_done: guard is an inline function, not a named guard',
    ]);
  });

  it('refuse, as the stepper does, a chart that fails them: the error lists every problem', () => {
    const problems = memoPreconditionProblems(chartWith({ back: { type: 'history' } }));
    expect(() => checkMemoPreconditions(problems)).toThrow(MemoPreconditionError);
    expect(() => checkMemoPreconditions(problems)).toThrow(/MEMO|memo cannot replay this chart exactly: back: a history state/);
    expect(() => checkMemoPreconditions(memoPreconditionProblems(loopMachine))).not.toThrow();
  });
});
