/**
 * A driver's memoized step from the state the last hit returned does not refill the scratch context: the scratch
 * already holds that state's context field for field (`StepMemo.carried`, src/reducer/stepper.ts; docs/benchmarks.md
 * "Round 17: core"). Any other state (an earlier one, a copy, a state after a miss) is refilled, and the public
 * stepper (`createStepper`), whose caller may change a state in place, always refills. Results are `step()`'s
 * either way (test/unit/reducer-step-scratch.test.ts, the property tests).
 */
import { describe, expect, it } from 'vitest';
import type { LoopState } from '../../src/data/state.ts';
import type { ScratchContext } from '../../src/machine/machine-context.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, createStepper, initialStateWithMemo, stepWithMemo, type StepMemo } from '../../src/reducer/stepper.ts';
import { recordedEvents, warmedPaths } from './memo-fixtures.ts';

/** Puts a proxy in place of `owned`'s scratch that counts writes of `runId`, which only a refill does. */
function countRefills(owned: StepMemo): { count: number } {
  const counter = { count: 0 };
  const scratch = owned.scratch as ScratchContext;
  owned.scratch = new Proxy(scratch, {
    set(target, key, value) {
      if (key === 'runId') counter.count += 1;
      return Reflect.set(target, key, value);
    },
  });
  return counter;
}

describe("a driver's memoized steps", () => {
  it('do not refill the scratch when stepping from the state the last hit returned', async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(warmedPaths(params, config, events));
    const plain: LoopState[] = [initialState(params, config).state];
    let state = initialStateWithMemo(owned, params, config).state;
    // The initial step's scratch is the first step's: it holds the initial context.
    expect(owned.carried).toBe(state);
    const refills = countRefills(owned);
    for (const event of events) {
      const next = stepWithMemo(owned, state, event, config);
      plain.push(step(plain[plain.length - 1], event, config).state);
      expect(next.state).toEqual(plain[plain.length - 1]);
      state = next.state;
    }
    expect(owned.memo.stats().misses).toBe(0);
    expect(refills.count).toBe(0);
    expect(owned.carried).toBeNull();
  });

  it('refill it for any other state: a copy, an earlier one, one after a miss', async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(createChartPaths());
    const first = initialStateWithMemo(owned, params, config).state;
    // Fresh paths: the first pass misses every path (xstate's), the scratch is made by the first step.
    let state = first;
    const states: LoopState[] = [first];
    for (const event of events.slice(0, 6)) states.push((state = stepWithMemo(owned, state, event, config).state));
    expect(owned.carried).toBeNull();
    const refills = countRefills(owned);
    // A second pass, now hits: the first step refills (the state after a miss), the next ones carry.
    state = stepWithMemo(owned, states[0], events[0], config).state;
    expect(refills.count).toBe(1);
    state = stepWithMemo(owned, state, events[1], config).state;
    expect(refills.count).toBe(1);
    // A copy of the carried state, changed: refilled, and stepped from as it is.
    const changed = { ...state, context: { ...state.context, turnCount: 7 } };
    const expected = step({ ...states[2], context: { ...states[2].context, turnCount: 7 } }, events[2], config);
    expect(stepWithMemo(owned, changed, events[2], config)).toEqual(expected);
    expect(refills.count).toBe(2);
    // An earlier state: refilled.
    expect(stepWithMemo(owned, states[1], events[1], config)).toEqual(step(states[1], events[1], config));
    expect(refills.count).toBe(3);
  });
});

describe('a memoized step that throws midway', () => {
  it('leaves nothing carried: a step from the same state again refills the half-written scratch', async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(createChartPaths());
    let state = initialStateWithMemo(owned, params, config).state;
    for (const event of events.slice(0, 6)) state = stepWithMemo(owned, state, event, config).state;
    // The same steps again, now hits: the last one returns a state the scratch carries.
    state = initialStateWithMemo(owned, params, config).state;
    for (const event of events.slice(0, 6)) state = stepWithMemo(owned, state, event, config).state;
    expect(owned.carried).toBe(state);
    const follow = owned.memo.follow;
    // An action that throws after writing to the scratch (as one could for an event it cannot take).
    (owned.memo as { follow: typeof follow }).follow = (value, context, event) => {
      (context as unknown as Record<string, unknown>).turnCount = 99;
      throw new Error('midway');
    };
    expect(() => stepWithMemo(owned, state, events[6], config)).toThrow('midway');
    (owned.memo as { follow: typeof follow }).follow = follow;
    expect(owned.carried).toBeNull();
    expect(stepWithMemo(owned, state, events[6], config)).toEqual(step(state, events[6], config));
  });
});

describe("the public stepper's memoized steps", () => {
  it('step from a state its caller changed in place as it is now', async () => {
    const { params, config, events } = await recordedEvents();
    const stepper = createStepper({ memo: true });
    let state = stepper.initialState(params, config).state;
    for (const event of events) state = stepper.step(state, event, config).state;
    state = stepper.initialState(params, config).state;
    let plainState = initialState(params, config).state;
    const at = events.findIndex((event) => event.type === 'model_done');
    for (let i = 0; i < at; i++) {
      state = stepper.step(state, events[i], config).state;
      plainState = step(plainState, events[i], config).state;
    }
    // Changed in place after the stepper handed it out (the caller owns it).
    state.context.outputTokens = 1_234;
    plainState.context.outputTokens = 1_234;
    expect(stepper.step(state, events[at], config)).toEqual(step(plainState, events[at], config));
    expect(stepper.stats().hits).toBeGreaterThan(0);
  });
});
