/**
 * The transient fold (src/reducer/transient-fold.ts: the history appended to in place once the fold has copied it,
 * no state built per step) steps exactly as `step()` does: every step's state and effects equal `step()`'s at the
 * time of the step, the final states are deep-equal, and nothing the fold was handed (params, events) changes. One set of chart
 * paths serves every case, so paths recorded under one config and script are followed under others: the memo
 * misses mid-path, after an append too, and the fold must undo what it pushed.
 *
 * Scripted runs with random configs, params and scripts (compactions, stop hooks, recovery and budget
 * continuations: every way the history grows or is replaced). Replay a failure with `TURNLOOP_SEED=<seed>`.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { Effect } from '../../src/data/effects.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo } from '../../src/reducer/stepper.ts';
import { startTransientFold, transientFoldState, transientStep } from '../../src/reducer/transient-fold.ts';
import { configArb, paramsArb, scriptFromSpec, scriptSpecArb } from '../helpers/arbitraries.ts';
import { deepFreeze } from '../helpers/deep-freeze.ts';
import { ScriptedWorld } from '../helpers/scripted-world.ts';
import { fixedSeed, scaledRuns } from './settings.ts';

const seed = fixedSeed();
const runs = (n: number) => ({ numRuns: scaledRuns(n), ...(seed !== undefined ? { seed } : {}) });
const MAX_STEPS = 400;

/** Shared by every case (see the module comment). */
const paths = createChartPaths();

describe('a transient fold steps as step() does', () => {
  test.prop({ config: configArb, params: paramsArb, spec: scriptSpecArb }, runs(80))(
    'scripted runs: the same state and effects at every step, the same final state, its inputs unchanged',
    ({ config, params, spec }) => {
      deepFreeze(config);
      const paramsBefore = structuredClone(params);
      const world = new ScriptedWorld(scriptFromSpec(spec));
      const start = initialState(params, config);
      const memo = createStepMemo(paths);
      expect(initialStateWithMemo(memo, params, config)).toEqual(start);
      let plain = start.state;
      const fold = startTransientFold(memo, initialStateWithMemo(memo, params, config).state, config);
      const queue = world.answer(start.effects);
      const handed: Array<{ event: LoopEvent; copy: LoopEvent }> = [];
      for (let i = 0; i < MAX_STEPS && queue.length > 0 && plain.status !== 'done'; i++) {
        const event = deepFreeze(queue.shift() as LoopEvent);
        const expected = step(plain, event, config);
        // The fold gets its own copy of the event (replay parses each one afresh), never frozen.
        const copy = structuredClone(event) as LoopEvent;
        handed.push({ event, copy });
        expect(transientStep(fold, copy)).toEqual(expected.effects);
        // The fold's context and value are the state's (the context in the machine's scratch shape).
        expect({ value: fold.value, status: fold.done ? 'done' : 'active', context: { ...fold.context, config: undefined, effects: undefined, transient: undefined } }).toEqual(expected.state);
        queue.push(...world.answer(expected.effects));
        plain = expected.state;
      }
      const folded = transientFoldState(fold);
      expect(folded).toEqual(plain);
      expect(params).toEqual(paramsBefore);
      for (const { event, copy } of handed) expect(copy).toEqual(event);
    },
  );

  test.prop({ config: configArb, params: paramsArb, spec: scriptSpecArb }, runs(60))(
    'emits only (replay): the same state at every step, the same emitted messages in order, the same final state',
    ({ config, params, spec }) => {
      deepFreeze(config);
      const world = new ScriptedWorld(scriptFromSpec(spec));
      const start = initialState(params, config);
      const memo = createStepMemo(paths);
      let plain = start.state;
      const fold = startTransientFold(memo, initialStateWithMemo(memo, params, config).state, config, true);
      const queue = world.answer(start.effects);
      for (let i = 0; i < MAX_STEPS && queue.length > 0 && plain.status !== 'done'; i++) {
        const event = deepFreeze(queue.shift() as LoopEvent);
        const expected = step(plain, event, config);
        const misses = memo.memo.stats().misses;
        const effects = transientStep(fold, structuredClone(event) as LoopEvent);
        // A step the memo followed builds its emits only; a step it missed is taken whole, with every effect.
        if (memo.memo.stats().misses === misses) expect(effects.every((effect) => effect.type === 'emit')).toBe(true);
        expect(messagesOf(effects)).toEqual(messagesOf(expected.effects));
        expect({ value: fold.value, status: fold.done ? 'done' : 'active', context: { ...fold.context, config: undefined, effects: undefined, transient: undefined } }).toEqual(expected.state);
        queue.push(...world.answer(expected.effects));
        plain = expected.state;
      }
      expect(transientFoldState(fold)).toEqual(plain);
    },
  );
});

function messagesOf(effects: readonly Effect[]): unknown[] {
  return effects.flatMap((effect) => (effect.type === 'emit' ? [effect.message] : []));
}
