/**
 * `step()` is a pure function of JSON data (docs/loop.md §2, §9.8; STYLE "functional core"):
 * - deterministic: the same (state, event, config) gives deep-equal results;
 * - it never mutates its inputs (they are deep-frozen here, so a write throws);
 * - a JSON copy of the state (and event, and config) continues identically: same effects, same next state;
 * - after a terminal, no event yields an effect or changes the state;
 * - a memoized stepper (`createStepper({ memo: true })`) gives exactly what plain `step()` gives.
 *
 * Two kinds of sequences: events answering a random script (reaching deep states), with random events slipped
 * in, and purely random events (mostly out of place). Replay a failure with `TURNLOOP_SEED=<seed>`; run 10× as
 * many cases with `TURNLOOP_DEEP=1`.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import type { LoopConfig } from '../../src/config/config.ts';
import type { Effect } from '../../src/data/effects.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopParams, LoopState } from '../../src/data/state.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepper } from '../../src/reducer/stepper.ts';
import { configArb, loopEventArb, paramsArb, scriptFromSpec, scriptSpecArb } from '../helpers/arbitraries.ts';
import { deepFreeze, jsonRoundTrip } from '../helpers/deep-freeze.ts';
import { ScriptedWorld } from '../helpers/scripted-world.ts';
import { fixedSeed, scaledRuns } from './settings.ts';

const seed = fixedSeed();
const runs = (n: number) => ({ numRuns: scaledRuns(n), ...(seed !== undefined ? { seed } : {}) });
const MAX_STEPS = 400;

const memoStepper = createStepper({ memo: true });

/** Steps once and checks the three purity properties; returns the direct result. */
function checkedStep(state: LoopState, event: LoopEvent, config: LoopConfig) {
  deepFreeze(state);
  deepFreeze(event);
  const first = step(state, event, config);
  const again = step(state, event, config);
  expect(again).toEqual(first);
  // The memoized stepper (macrostep-memo.ts) gives exactly what xstate's transition() alone gives.
  expect(memoStepper.step(state, event, config)).toEqual(first);
  const fromJson = step(jsonRoundTrip(state), jsonRoundTrip(event), jsonRoundTrip(config));
  expect(fromJson).toEqual(jsonRoundTrip(first));
  if (state.status === 'done') {
    expect(first.effects).toEqual([]);
    expect(first.state).toBe(state);
  }
  return first;
}

function checkedStart(params: LoopParams, config: LoopConfig) {
  const first = initialState(params, config);
  expect(initialState(params, config)).toEqual(first);
  // The memoized stepper follows the initial transition's recorded path (stepper.ts) to exactly the same start.
  expect(memoStepper.initialState(params, config)).toEqual(first);
  expect(initialState(jsonRoundTrip(params), jsonRoundTrip(config))).toEqual(jsonRoundTrip(first));
  return first;
}

/** Effect ids are stable correlation ids: unique within a run; `terminated` comes last and only once. */
function checkEffectLog(effects: Effect[]) {
  expect(new Set(effects.map((e) => e.id)).size).toBe(effects.length);
  const terminated = effects.findIndex((e) => e.type === 'terminated');
  if (terminated >= 0) expect(terminated).toBe(effects.length - 1);
}

describe('step() purity (docs/loop.md §9.8)', () => {
  test.prop(
    {
      config: configArb,
      params: paramsArb,
      spec: scriptSpecArb,
      noise: fc.array(fc.tuple(fc.nat(60), loopEventArb), { maxLength: 6 }),
      afterEnd: fc.array(loopEventArb, { minLength: 1, maxLength: 4 }),
    },
    runs(40),
  )('scripted runs with random events slipped in: deterministic, non-mutating, JSON-resumable', ({ config, params, spec, noise, afterEnd }) => {
    deepFreeze(config);
    deepFreeze(params);
    const world = new ScriptedWorld(scriptFromSpec(spec));
    const start = checkedStart(params, config);
    const effects = [...start.effects];
    const queue = world.answer(start.effects);
    let state = start.state;
    for (let i = 0; i < MAX_STEPS && queue.length > 0 && state.status !== 'done'; i++) {
      const slipped = noise.filter(([at]) => at === i).map(([, event]) => event);
      const event = slipped.length > 0 ? slipped[0] : (queue.shift() as LoopEvent);
      if (slipped.length > 0) noise.splice(noise.findIndex(([at]) => at === i), 1);
      const result = checkedStep(state, event, config);
      effects.push(...result.effects);
      queue.push(...world.answer(result.effects));
      state = result.state;
    }
    checkEffectLog(effects);
    if (state.status === 'done') for (const event of afterEnd) checkedStep(state, event, config);
  });

  test.prop({ config: configArb, params: paramsArb, events: fc.array(loopEventArb, { maxLength: 40 }) }, runs(60))(
    'purely random event sequences (mostly out of place): deterministic, non-mutating, JSON-resumable',
    ({ config, params, events }) => {
      deepFreeze(config);
      deepFreeze(params);
      const start = checkedStart(params, config);
      const effects = [...start.effects];
      let state = start.state;
      for (const event of events) {
        const result = checkedStep(state, event, config);
        effects.push(...result.effects);
        state = result.state;
      }
      checkEffectLog(effects);
    },
  );
});
