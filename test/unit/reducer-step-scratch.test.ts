/**
 * A memoized stepper runs every step's guards and actions on one scratch context of its own (`StepMemo.scratch`),
 * refilled from the state it steps from, instead of building one per step. Nothing of the scratch leaves a step
 * (the state's context is a copy), so the results are `step()`'s whatever state it steps from next: a later one,
 * an earlier one (time travel), or one a caller changed. The step that ends the run lets the scratch go, so a memo
 * kept after its run (the kept interpreter, src/tools/kept-shapes.ts) holds none of the run's data.
 */
import { describe, expect, it } from 'vitest';
import type { LoopState } from '../../src/data/state.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo, releaseStepMemo, stepWithMemo, type StepMemo } from '../../src/reducer/stepper.ts';
import { resolveConfig } from '../../src/config/config.ts';
import { Interpreter } from '../../src/drivers/interpreter.ts';
import { runLoopToEnd } from '../../src/drivers/run-loop.ts';
import { keptInstanceOf } from '../../src/tools/kept-shapes.ts';
import { recordedEvents, warmedPaths } from './memo-fixtures.ts';

describe("a memoized stepper's scratch context", () => {
  it('is one object for every step the memo follows', async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(warmedPaths(params, config, events));
    let state = initialStateWithMemo(owned, params, config).state;
    const scratches = new Set<unknown>();
    for (const event of events) {
      state = stepWithMemo(owned, state, event, config).state;
      if (state.status !== 'done') scratches.add(owned.scratch);
    }
    expect(owned.memo.stats().misses).toBe(0);
    expect(scratches.size).toBe(1);
    const [scratch] = scratches;
    expect(typeof scratch).toBe('object');
    expect(scratch).not.toBeNull();
    // Never a state's context: a state handed out does not change when the stepper goes on.
    expect(scratches.has(state.context)).toBe(false);
  });

  it("gives step()'s results from any state: later, earlier, or changed by the caller", async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(createChartPaths());
    const plain: LoopState[] = [initialState(params, config).state];
    const memoized: LoopState[] = [initialStateWithMemo(owned, params, config).state];
    for (const event of events) {
      plain.push(step(plain[plain.length - 1], event, config).state);
      memoized.push(stepWithMemo(owned, memoized[memoized.length - 1], event, config).state);
    }
    expect(memoized).toEqual(plain);
    // Time travel: every event again from the state before it, in reverse order.
    for (let i = events.length - 1; i >= 0; i--) {
      const again = stepWithMemo(owned, memoized[i], events[i], config);
      expect(again).toEqual(step(plain[i], events[i], config));
    }
    // A caller's own copy of a state, with a field changed, is stepped from as it is now.
    const at = events.findIndex((event) => event.type === 'model_done');
    const changed = { ...memoized[at], context: { ...memoized[at].context, outputTokens: 1_234, turnCount: 7 } };
    const expected = step({ ...plain[at], context: { ...plain[at].context, outputTokens: 1_234, turnCount: 7 } }, events[at], config);
    expect(stepWithMemo(owned, changed, events[at], config)).toEqual(expected);
    expect(memoized.slice(1)).toEqual(plain.slice(1));
  });

  it('is let go of by the step that ends the run', async () => {
    const { params, config, events } = await recordedEvents();
    const owned = createStepMemo(createChartPaths());
    let state = initialStateWithMemo(owned, params, config).state;
    const held: boolean[] = [];
    for (const event of events) {
      state = stepWithMemo(owned, state, event, config).state;
      held.push(owned.scratch !== null);
    }
    expect(state.status).toBe('done');
    expect(held.slice(0, -1).every(Boolean)).toBe(true);
    expect(held[held.length - 1]).toBe(false);
    releaseStepMemo(owned);
    expect(owned.scratch).toBeNull();
  });

  it('is not held by the interpreter kept after its run', async () => {
    const SECRET = 'a prompt only the finished run had';
    await runLoopToEnd({
      prompt: SECRET,
      config: resolveConfig({ sessionId: 'kept-scratch' }),
      deps: {
        callModel: async function* (request) {
          const message = { type: 'assistant' as const, uuid: 'm1', message: { id: 'm1', role: 'assistant' as const, model: request.model, content: [{ type: 'text' as const, text: 'done' }], stop_reason: 'end_turn' } };
          yield { kind: 'event' as const, event: { type: 'model_message' as const, message } };
          yield { kind: 'event' as const, event: { type: 'model_done' as const, stopReason: 'end_turn' } };
        },
      },
    });
    const kept = keptInstanceOf(Interpreter) as unknown as { memo: StepMemo };
    expect(kept.memo.memo.stats().hits + kept.memo.memo.stats().misses).toBeGreaterThan(0);
    expect(kept.memo.scratch).toBeNull();
  });

  it('is not held by the interpreter kept after a run that failed before its end', async () => {
    await runLoopToEnd({
      prompt: 'a prompt only the failed run had',
      config: resolveConfig({ sessionId: 'kept-scratch-failed' }),
      deps: {
        callModel: async function* () {
          yield { kind: 'event' as const, event: { type: 'not_an_event' } as never };
        },
      },
    }).catch(() => undefined);
    const kept = keptInstanceOf(Interpreter) as unknown as { memo: StepMemo };
    expect(kept.memo.memo.stats().hits + kept.memo.memo.stats().misses).toBeGreaterThan(0);
    expect(kept.memo.scratch).toBeNull();
  });
});
