/**
 * The macrostep memo (src/reducer/macrostep-memo.ts): paths xstate took, followed again while the guards answer
 * the same way. The toy guards and actions here stand in for the machine's; the whole-machine check that the memo
 * changes nothing is in `drive()` (every driven test) and in the purity property.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ActionFn, GuardFn, MachineContext } from '../../src/machine/machine-context.ts';
import { createTraceCollector, type TraceStep } from '../../src/machine/macrostep-trace.ts';
import { createChartPaths, createMacrostepMemo } from '../../src/reducer/macrostep-memo.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepper } from '../../src/reducer/stepper.ts';
import type { Effect } from '../../src/data/effects.ts';
import { layerResult, modelStreamFallback, params, testConfig } from '../helpers/index.ts';

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
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(bump), guardStep(isBig, false), actionStep(bump)], end('b'));
    const followed = memo.follow('a', ctx(3), event);
    expect(followed?.context.turnCount).toBe(5);
    expect(followed?.end).toMatchObject({ value: 'b', done: false, unchanged: false });
    expect(memo.stats()).toMatchObject({ hits: 1, misses: 0, nodes: 4 });
  });

  it('follows a path without reading its nodes\' trace steps (each node holds its function and params)', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(bump), guardStep(isBig, false), actionStep(bump)], end('b'));
    let reads = 0;
    type Node = { kind: string; step?: unknown; next?: Node; onTrue?: Node | null; onFalse?: Node | null };
    for (let node = memo.paths.roots.get('a')?.get(event.type) as Node | null | undefined; node && node.kind !== 'end'; node = node.kind === 'guard' ? (node.onFalse ?? node.onTrue) : node.next) {
      const step = node.step;
      Object.defineProperty(node, 'step', { get: () => (reads++, step), configurable: true, enumerable: true });
    }
    expect(memo.follow('a', ctx(3), event)?.context.turnCount).toBe(5);
    expect(reads).toBe(0);
  });

  it('misses when a guard answers differently, and follows both branches once both are recorded', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [guardStep(isBig, false), actionStep(bump)], end('small'));
    expect(memo.follow('a', ctx(20), event)).toBeNull();
    memo.add('a', event, [guardStep(isBig, true), actionStep(reset)], end('big'));
    expect(memo.follow('a', ctx(20), event)).toMatchObject({ end: { value: 'big' }, context: { turnCount: 0 } });
    expect(memo.follow('a', ctx(1), event)).toMatchObject({ end: { value: 'small' }, context: { turnCount: 2 } });
    expect(memo.stats()).toMatchObject({ hits: 2, misses: 1, nodes: 5 });
  });

  it('keys paths by state value and event type', () => {
    const memo = createMacrostepMemo();
    memo.add({ exitLadder: 'stopHooks' }, event, [actionStep(bump)], end('b'));
    expect(memo.follow({ exitLadder: 'stopHooks' }, ctx(0), event)).not.toBeNull();
    expect(memo.follow({ exitLadder: 'tokenBudget' }, ctx(0), event)).toBeNull();
    expect(memo.follow({ exitLadder: 'stopHooks' }, ctx(0), { type: 'abort', reason: 'x' })).toBeNull();
  });

  it('misses when an action throws, so xstate reports the error', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(boom)], end('b'));
    expect(memo.follow('a', ctx(0), event)).toBeNull();
  });

  it('drops a path that contradicts the tree instead of corrupting it', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(bump)], end('b'));
    memo.add('a', event, [actionStep(reset)], end('c'));
    expect(memo.follow('a', ctx(1), event)).toMatchObject({ end: { value: 'b' }, context: { turnCount: 2 } });
    expect(memo.stats().nodes).toBe(2);
  });

  it('drops a path whose step is not the recorded one: another guard, other params, another kind', () => {
    const isSmall: GuardFn = (context) => context.turnCount < 10;
    const recorded = { n: 1 };
    const guardWith = (fn: GuardFn, params: unknown, result: boolean): TraceStep => ({ kind: 'guard', fn, params, result });
    const actionWith = (fn: unknown, params: unknown): TraceStep => ({ kind: 'action', fn: fn as ActionFn, params });
    // Each case: a recorded path, a contradicting one, and a context the contradicting one would wrongly answer.
    const cases: Array<{ recordedPath: TraceStep[]; contradiction: TraceStep[]; probe: number }> = [
      { recordedPath: [guardWith(isBig, recorded, false)], contradiction: [guardWith(isSmall, recorded, true)], probe: 20 },
      { recordedPath: [guardWith(isBig, recorded, false)], contradiction: [guardWith(isBig, { n: 2 }, true)], probe: 20 },
      { recordedPath: [guardWith(isBig, recorded, true)], contradiction: [actionWith(isBig, recorded)], probe: 1 },
      {
        recordedPath: [actionStep(bump), guardStep(isBig, false)],
        contradiction: [guardWith(bump as unknown as GuardFn, undefined, true), guardStep(isBig, true)],
        probe: 20,
      },
    ];
    for (const { recordedPath, contradiction, probe } of cases) {
      const memo = createMacrostepMemo();
      memo.add('a', event, recordedPath, end('recorded'));
      const nodes = memo.stats().nodes;
      memo.add('a', event, contradiction, end('contradiction'));
      expect(memo.stats().nodes).toBe(nodes);
      expect(memo.follow('a', ctx(probe), event)).toBeNull();
    }
  });

  it('drops a path that goes on where the recorded one ended', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(bump)], end('b'));
    expect(() => memo.add('a', event, [actionStep(bump), actionStep(bump)], end('c'))).not.toThrow();
    expect(memo.stats().nodes).toBe(2);
    expect(memo.follow('a', ctx(1), event)).toMatchObject({ end: { value: 'b' }, context: { turnCount: 2 } });
  });

  it('adds a branch deep in the tree without losing the branches above it', () => {
    const isEven: GuardFn = (context) => context.turnCount % 2 === 0;
    const memo = createMacrostepMemo();
    memo.add('a', event, [actionStep(bump), guardStep(isBig, false), guardStep(isEven, false)], end('small odd'));
    memo.add('a', event, [actionStep(bump), guardStep(isBig, false), guardStep(isEven, true)], end('small even'));
    memo.add('a', event, [actionStep(bump), guardStep(isBig, true)], end('big'));
    expect(memo.follow('a', ctx(2), event)?.end.value).toBe('small odd');
    expect(memo.follow('a', ctx(3), event)?.end.value).toBe('small even');
    expect(memo.follow('a', ctx(11), event)?.end.value).toBe('big');
    expect(memo.stats().nodes).toBe(6);
  });

  it('tells apart state values and event types that would run together as text', () => {
    const memo = createMacrostepMemo();
    memo.add('a', { type: 'bc' } as unknown as LoopEvent, [actionStep(bump)], end('first'));
    expect(memo.follow('ab', ctx(0), { type: 'c' } as unknown as LoopEvent)).toBeNull();
    expect(memo.follow('a', ctx(0), { type: 'bc' } as unknown as LoopEvent)).not.toBeNull();
  });

  it('stops growing at its node cap; paths past it are simply not memoized', () => {
    const memo = createMacrostepMemo(createChartPaths(4));
    memo.add('a', event, [actionStep(bump)], end('b'));
    memo.add('b', event, [actionStep(bump)], end('c')); // exactly at the cap: kept
    memo.add('c', event, [actionStep(bump)], end('d'));
    expect(memo.stats().nodes).toBe(4);
    expect(memo.follow('b', ctx(0), event)).not.toBeNull();
    expect(memo.follow('a', ctx(0), event)).not.toBeNull();
    expect(memo.follow('c', ctx(0), event)).toBeNull();
  });

  it('hands out frozen state values, so a caller cannot change a memoized end', () => {
    const memo = createMacrostepMemo();
    memo.add('a', event, [], { value: { exitLadder: 'stopHooks' } as never, done: false, unchanged: false });
    const value = memo.follow('a', ctx(0), event)?.end.value;
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('records only while a trace is being recorded', () => {
    const tracer = createTraceCollector();
    tracer.guard(isBig, undefined, true);
    const { result, trace } = tracer.record(() => {
      tracer.guard(isBig, { feature: 'x' }, false);
      tracer.action(bump, undefined);
      return 7;
    });
    tracer.guard(isBig, undefined, true); // after the recording: not part of it
    expect(result).toBe(7);
    expect(trace).toEqual([
      { kind: 'guard', fn: isBig, params: { feature: 'x' }, result: false },
      { kind: 'action', fn: bump, params: undefined },
    ]);
  });

  it('a memoized stepper follows the memo once xstate has taken a path, with the same result as plain step()', () => {
    const config = testConfig({ sessionId: 'memo-test' });
    const stepper = createStepper({ memo: true });
    const start = initialState(params('hi'), config);
    const first = stepper.step(start.state, layerResult('tool_result_budget'), config);
    expect(stepper.stats()).toMatchObject({ hits: 0, misses: 1 });
    const second = stepper.step(start.state, layerResult('tool_result_budget'), config);
    expect(stepper.stats()).toMatchObject({ hits: 1, misses: 1 });
    expect(second).toEqual(first);
    expect(second).toEqual(step(start.state, layerResult('tool_result_budget'), config));
  });

  it('follows the initial transition once xstate has taken it, with the same start as plain initialState()', () => {
    const stepper = createStepper({ memo: true });
    const config = testConfig({ sessionId: 'memo-test' });
    const first = stepper.initialState(params('hi'), config);
    expect(stepper.stats()).toMatchObject({ hits: 0, misses: 1 });
    expect(first).toEqual(initialState(params('hi'), config));
    // Another prompt, another config: the same path, followed.
    const other = testConfig({ sessionId: 'memo-test-2', limits: { maxModelCalls: 7 } });
    expect(stepper.initialState(params('again'), other)).toEqual(initialState(params('again'), other));
    expect(stepper.stats()).toMatchObject({ hits: 1, misses: 1 });
  });

  it("hands its callers an effect list of their own on a memo hit that queues nothing (the memo's is shared and frozen)", () => {
    const config = testConfig({ sessionId: 'memo-test' });
    const stepper = createStepper({ memo: true });
    let result = stepper.initialState(params('hi'), config);
    // Through the turn's context layers to the model call.
    for (let i = 0; i < 10 && result.state.value !== 'sampling'; i++) {
      const request = result.effects.find((effect) => effect.type === 'context_layer');
      if (request?.type !== 'context_layer') throw new Error(`no context layer requested in ${JSON.stringify(result.state.value)}`);
      result = stepper.step(result.state, layerResult(request.layer), config);
    }
    expect(result.state.value).toBe('sampling');
    // A stream fallback with nothing received queues nothing: xstate's step, then the memo's.
    const taken = stepper.step(result.state, modelStreamFallback(), config);
    const followed = stepper.step(result.state, modelStreamFallback(), config);
    expect(stepper.stats().hits).toBeGreaterThan(0);
    expect(followed).toEqual(taken);
    expect(followed.effects).toEqual([]);
    expect(Object.isFrozen(followed.effects)).toBe(false);
    followed.effects.push({ type: 'request_start', id: 'mine' } as Effect);
    expect(stepper.step(result.state, modelStreamFallback(), config).effects).toEqual([]);
  });

  it('keeps its memo to itself: a new stepper starts empty', () => {
    const config = testConfig({ sessionId: 'memo-test' });
    const start = initialState(params('hi'), config);
    createStepper({ memo: true }).step(start.state, layerResult('tool_result_budget'), config);
    expect(createStepper({ memo: true }).stats()).toEqual({ hits: 0, misses: 0, nodes: 0 });
    expect(createStepper().stats()).toEqual({ hits: 0, misses: 0, nodes: 0 });
  });

  it('finds the paths of a state value it handed out by identity alone, without asking whether it is frozen', () => {
    const memo = createMacrostepMemo();
    memo.add({ exitLadder: 'stopHooks' }, event, [actionStep(bump)], end('b'));
    memo.add('b', event, [actionStep(bump)], { value: { exitLadder: 'stopHooks' }, done: false, unchanged: false });
    const handedOut = memo.follow('b', ctx(0), event)?.end.value as Record<string, unknown>;
    expect(Object.isFrozen(handedOut)).toBe(true);
    expect(memo.follow(handedOut, ctx(0), event)).not.toBeNull();
    const isFrozen = vi.spyOn(Object, 'isFrozen');
    try {
      for (let i = 0; i < 5; i++) expect(memo.follow(handedOut, ctx(i), event)?.context.turnCount).toBe(i + 1);
      expect(isFrozen).not.toHaveBeenCalled();
      // A caller's own (unfrozen) value of the same state is found by its text, and never kept by identity.
      expect(memo.follow({ exitLadder: 'stopHooks' }, ctx(0), event)).not.toBeNull();
      expect(isFrozen).toHaveBeenCalledTimes(1);
    } finally {
      isFrozen.mockRestore();
    }
  });

  it('is built without an accessor (a literal with a getter took 0.5-1.5 µs to build, once per run), its stats a method', () => {
    const memo = createMacrostepMemo();
    for (const key of Object.keys(memo)) expect(Object.getOwnPropertyDescriptor(memo, key)?.get, key).toBeUndefined();
    memo.add('a', event, [actionStep(bump)], end('b'));
    memo.follow('a', ctx(0), event);
    expect(memo.stats()).toEqual({ hits: 1, misses: 0, nodes: 2 });
  });
});
