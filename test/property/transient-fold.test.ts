/**
 * A transient fold (`stepTransient`, src/reducer/transient-step.ts: the history appended to in place once the fold
 * has copied it) steps exactly as `step()` does: every step's state and effects equal `step()`'s at the time of the
 * step, the final states are deep-equal, and nothing the fold was handed (params, events) changes. One set of chart
 * paths serves every case, so paths recorded under one config and script are followed under others: the memo
 * misses mid-path, after an append too, and the fold must undo what it pushed.
 *
 * Scripted runs with random configs, params and scripts (compactions, stop hooks, recovery and budget
 * continuations: every way the history grows or is replaced). Replay a failure with `TURNLOOP_SEED=<seed>`.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { LoopEvent } from '../../src/data/events.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo } from '../../src/reducer/stepper.ts';
import { stepTransient, transientHistory } from '../../src/reducer/transient-step.ts';
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
      const transient = transientHistory();
      expect(initialStateWithMemo(memo, params, config)).toEqual(start);
      let plain = start.state;
      let folded = initialStateWithMemo(memo, params, config).state;
      const queue = world.answer(start.effects);
      const handed: Array<{ event: LoopEvent; copy: LoopEvent }> = [];
      for (let i = 0; i < MAX_STEPS && queue.length > 0 && plain.status !== 'done'; i++) {
        const event = deepFreeze(queue.shift() as LoopEvent);
        const expected = step(plain, event, config);
        // The fold gets its own copy of the event (replay parses each one afresh), never frozen.
        const copy = structuredClone(event) as LoopEvent;
        handed.push({ event, copy });
        const result = stepTransient(memo, folded, copy, config, transient);
        expect(result).toEqual(expected);
        queue.push(...world.answer(expected.effects));
        plain = expected.state;
        folded = result.state;
      }
      expect(folded).toEqual(plain);
      expect(params).toEqual(paramsBefore);
      for (const { event, copy } of handed) expect(copy).toEqual(event);
    },
  );
});
