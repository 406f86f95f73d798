/**
 * The macrostep memo (src/reducer/macrostep-memo.ts): paths xstate took, followed again while the guards answer
 * the same way. The toy guards and actions here stand in for the machine's; the whole-machine check that the memo
 * changes nothing is in `drive()` (every driven test) and in the purity property.
 */
import { describe, expect, it } from 'vitest';
import type { ActionFn, GuardFn, MachineContext } from '../../src/machine/machine-context.ts';
import { recordMacrostep, traceAction, traceGuard, type TraceStep } from '../../src/machine/macrostep-trace.ts';
import { MacrostepMemo } from '../../src/reducer/macrostep-memo.ts';
import type { LoopEvent } from '../../src/reducer/events.ts';
import { initialState, macrostepMemoStats, step } from '../../src/reducer/step.ts';
import { layerResult, params, testConfig } from '../helpers/index.ts';

const event = { type: 'tools_finished' } as LoopEvent;
const isBig: GuardFn = (context) => context.turnCount > 10;
const bump: ActionFn = (context) => ({ turnCount: context.turnCount + 1 });
const reset: ActionFn = () => ({ turnCount: 0 });
const boom: ActionFn = () => {
  throw new Error('boom');
};

const ctx = (turnCount: number) => ({ turnCount }) as unknown as MachineContext;
const guardStep = (fn: GuardFn, result: boolean): TraceStep => ({ kind: 'guard', fn, params: undefined, result });
const actionStep = (fn: ActionFn): TraceStep => ({ kind: 'action', fn, params: undefined });
const end = (value: string) => ({ value, done: false, unchanged: false });

describe('macrostep memo', () => {
  it('follows a recorded path, running its actions on the context in order', () => {
    const memo = new MacrostepMemo();
    memo.add('a', event, [actionStep(bump), guardStep(isBig, false), actionStep(bump)], end('b'));
    const followed = memo.follow('a', ctx(3), event);
    expect(followed?.context.turnCount).toBe(5);
    expect(followed?.end).toMatchObject({ value: 'b', done: false, unchanged: false });
    expect(memo.stats).toMatchObject({ hits: 1, misses: 0, nodes: 4 });
  });

  it('misses when a guard answers differently, and follows both branches once both are recorded', () => {
    const memo = new MacrostepMemo();
    memo.add('a', event, [guardStep(isBig, false), actionStep(bump)], end('small'));
    expect(memo.follow('a', ctx(20), event)).toBeNull();
    memo.add('a', event, [guardStep(isBig, true), actionStep(reset)], end('big'));
    expect(memo.follow('a', ctx(20), event)).toMatchObject({ end: { value: 'big' }, context: { turnCount: 0 } });
    expect(memo.follow('a', ctx(1), event)).toMatchObject({ end: { value: 'small' }, context: { turnCount: 2 } });
    expect(memo.stats).toMatchObject({ hits: 2, misses: 1, nodes: 5 });
  });

  it('keys paths by state value and event type', () => {
    const memo = new MacrostepMemo();
    memo.add({ exitLadder: 'stopHooks' }, event, [actionStep(bump)], end('b'));
    expect(memo.follow({ exitLadder: 'stopHooks' }, ctx(0), event)).not.toBeNull();
    expect(memo.follow({ exitLadder: 'tokenBudget' }, ctx(0), event)).toBeNull();
    expect(memo.follow({ exitLadder: 'stopHooks' }, ctx(0), { type: 'abort', reason: 'x' })).toBeNull();
  });

  it('misses when an action throws, so xstate reports the error', () => {
    const memo = new MacrostepMemo();
    memo.add('a', event, [actionStep(boom)], end('b'));
    expect(memo.follow('a', ctx(0), event)).toBeNull();
  });

  it('drops a path that contradicts the tree instead of corrupting it', () => {
    const memo = new MacrostepMemo();
    memo.add('a', event, [actionStep(bump)], end('b'));
    memo.add('a', event, [actionStep(reset)], end('c'));
    expect(memo.follow('a', ctx(1), event)).toMatchObject({ end: { value: 'b' }, context: { turnCount: 2 } });
    expect(memo.stats.nodes).toBe(2);
  });

  it('hands out frozen state values, so a caller cannot change a memoized end', () => {
    const memo = new MacrostepMemo();
    memo.add('a', event, [], { value: { exitLadder: 'stopHooks' } as never, done: false, unchanged: false });
    const value = memo.follow('a', ctx(0), event)?.end.value;
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('records only while a trace is being recorded', () => {
    traceGuard(isBig, undefined, true);
    const { result, trace } = recordMacrostep(() => {
      traceGuard(isBig, { feature: 'x' }, false);
      traceAction(bump, undefined);
      return 7;
    });
    expect(result).toBe(7);
    expect(trace).toEqual([
      { kind: 'guard', fn: isBig, params: { feature: 'x' }, result: false },
      { kind: 'action', fn: bump, params: undefined },
    ]);
  });

  it('step() follows the memo once xstate has taken a path, with the same result as the first time', () => {
    const config = testConfig({ sessionId: 'memo-test' });
    const start = initialState(params('hi'), config);
    const before = macrostepMemoStats();
    const first = step(start.state, layerResult('tool_result_budget'), config);
    const second = step(start.state, layerResult('tool_result_budget'), config);
    const after = macrostepMemoStats();
    expect(second).toEqual(first);
    expect(after.hits).toBeGreaterThan(before.hits);
  });
});
