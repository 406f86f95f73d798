/**
 * A memoized stepper runs every step's guards and actions on one scratch context of its own (`StepMemo.scratch`),
 * refilled from the state it steps from, instead of building one per step. Nothing of the scratch leaves a step
 * (the state's context is a copy), so the results are `step()`'s whatever state it steps from next: a later one,
 * an earlier one (time travel), or one a caller changed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LoopConfig } from '../../src/config/config.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopParams, LoopState } from '../../src/data/state.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo, stepWithMemo } from '../../src/reducer/stepper.ts';
import { parseSessionLogText } from '../../src/replay/parse-session-log.ts';
import { recordRun, toolTurns } from './replay/fixtures.ts';

async function recordedEvents(): Promise<{ params: LoopParams; config: LoopConfig; events: LoopEvent[] }> {
  const log = parseSessionLogText(readFileSync((await recordRun(toolTurns(3))).path, 'utf8'));
  return { params: log.header.params, config: log.header.config, events: log.events.map((line) => line.event) };
}

describe("a memoized stepper's scratch context", () => {
  it('is one object for every step the memo follows', async () => {
    const { params, config, events } = await recordedEvents();
    const paths = createChartPaths();
    const warm = createStepMemo(paths);
    let state = initialStateWithMemo(warm, params, config).state;
    for (const event of events) state = stepWithMemo(warm, state, event, config).state;

    const owned = createStepMemo(paths);
    state = initialStateWithMemo(owned, params, config).state;
    const scratches = new Set<unknown>();
    for (const event of events) {
      state = stepWithMemo(owned, state, event, config).state;
      scratches.add(owned.scratch);
    }
    expect(owned.memo.stats.misses).toBe(0);
    expect(scratches.size).toBe(1);
    expect(typeof owned.scratch).toBe('object');
    expect(owned.scratch).not.toBeNull();
    // Never a state's context: a state handed out does not change when the stepper goes on.
    expect(owned.scratch).not.toBe(state.context);
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
});
