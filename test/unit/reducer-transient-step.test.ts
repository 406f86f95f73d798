/**
 * `stepTransient` (src/reducer/transient-step.ts): a fold that owns its states appends to the history in place, but
 * only to the copy its own first append made, and a memo miss after such an append leaves the state stepped from as
 * it was before xstate takes the step.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type LoopConfig } from '../../src/config/config.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopParams, LoopState } from '../../src/data/state.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo, type StepMemo } from '../../src/reducer/stepper.ts';
import { stepTransient, transientHistory, type TransientHistory } from '../../src/reducer/transient-step.ts';
import { parseSessionLogText } from '../../src/replay/parse-session-log.ts';
import { recordRun, toolTurns } from './replay/fixtures.ts';

async function recordedEvents(): Promise<{ params: LoopParams; config: LoopConfig; events: LoopEvent[] }> {
  const log = parseSessionLogText(readFileSync((await recordRun(toolTurns(3))).path, 'utf8'));
  return { params: log.header.params, config: log.header.config, events: log.events.map((line) => line.event) };
}

function plainFold(params: LoopParams, config: LoopConfig, events: LoopEvent[]): LoopState {
  let state = initialState(params, config).state;
  for (const event of events) state = step(state, event, config).state;
  return state;
}

/** Folds with `stepTransient`, calling `each` with every state's history after its step. */
function transientFold(memo: StepMemo, params: LoopParams, config: LoopConfig, events: LoopEvent[], transient: TransientHistory, each?: (state: LoopState) => void): LoopState {
  let state = initialStateWithMemo(memo, params, config).state;
  for (const event of events) {
    state = stepTransient(memo, state, event, config, transient).state;
    each?.(state);
  }
  return state;
}

describe('stepTransient', () => {
  it('copies the history it was not handed by its own append, then appends to that copy in place', async () => {
    const { params, config, events } = await recordedEvents();
    const before = structuredClone(params);
    const initial = initialState(params, config).state.context.messages;
    // Paths recorded first: a memo miss takes the step through xstate, which copies (a test below).
    const paths = createChartPaths();
    transientFold(createStepMemo(paths), params, config, events, transientHistory());
    const memo = createStepMemo(paths);
    const transient = transientHistory();
    const histories = new Set<unknown>();
    const final = transientFold(memo, params, config, events, transient, (state) => histories.add(state.context.messages));
    expect(memo.memo.stats.misses).toBe(0);
    expect(final).toEqual(plainFold(params, config, events));
    // The initial history (the header's, or taken from it) is never appended to: one copy, then that copy grows.
    expect(params).toEqual(before);
    expect(initial.length).toBe(before.messages.length);
    expect(histories.size).toBe(2);
    expect(transient.array).toBe(final.context.messages);
    expect(final.context.turnCount).toBe(4);
  });

  it('takes the pushed messages off again when the memo misses after an append, so xstate steps from the state as it was', async () => {
    const { params, config, events } = await recordedEvents();
    // No context layer (no wait between a turn's append and the model-call cap's guard) and a cap of 3 calls: the
    // second turn follows the first one's recorded path (append, then the cap's guard answering no) and claims the
    // history; the third follows it too, appends in place, and the cap's guard answers yes: a miss.
    const capped = resolveConfig({ features: { toolResultBudget: false, historySnip: false, microcompact: false, contextCollapse: false }, limits: { maxModelCalls: 3 } }, config);
    const memo = createStepMemo(createChartPaths());
    const transient = transientHistory();
    let turnClaimed = 0;
    const final = transientFold(memo, params, capped, events, transient, (state) => {
      if (turnClaimed === 0 && transient.array === state.context.messages) turnClaimed = state.context.turnCount;
    });
    expect(turnClaimed).toBe(3);
    expect(final.context.terminal).toMatchObject({ reason: 'max_turns', cap: 'maxModelCalls' });
    expect(final).toEqual(plainFold(params, capped, events));
  });

  it('copies every time without a claim of its own (a fresh claim per fold)', async () => {
    const { params, config, events } = await recordedEvents();
    const memo = createStepMemo(createChartPaths());
    const first = transientFold(memo, params, config, events, transientHistory());
    const kept = structuredClone(first);
    // A second fold with a claim of its own never appends to the first fold's history.
    const second = transientFold(memo, params, config, events, transientHistory());
    expect(first).toEqual(kept);
    expect(second.context.messages).not.toBe(first.context.messages);
    expect(second).toEqual(first);
  });
});
