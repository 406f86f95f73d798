/**
 * The transient fold (src/reducer/transient-fold.ts): it appends to the history in place, but only to the copy its
 * own first append made; a memo miss after such an append leaves the state stepped from as it was before xstate
 * takes the step; the state it hands out never changes afterwards; its scratch contexts carry every field.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type LoopConfig } from '../../src/config/config.ts';
import type { LoopEvent } from '../../src/data/events.ts';
import type { LoopContext, LoopParams, LoopState } from '../../src/data/state.ts';
import { keepsEffects, openOutbox, skipEffect, toScratchContext } from '../../src/machine/machine-context.ts';
import { createChartPaths } from '../../src/reducer/macrostep-memo.ts';
import { initialState, step } from '../../src/reducer/step.ts';
import { createStepMemo, initialStateWithMemo, type StepMemo } from '../../src/reducer/stepper.ts';
import { startTransientFold, transientFoldState, transientStep, type TransientFold } from '../../src/reducer/transient-fold.ts';
import { fillContext } from '../../src/machine/machine-context.ts';
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

/** Folds `events` transiently, calling `each` with the fold after every step. */
function transientFold(memo: StepMemo, params: LoopParams, config: LoopConfig, events: LoopEvent[], each?: (fold: TransientFold) => void, emitsOnly = false): LoopState {
  const fold = startTransientFold(memo, initialStateWithMemo(memo, params, config).state, config, emitsOnly);
  for (const event of events) {
    transientStep(fold, event);
    each?.(fold);
  }
  return transientFoldState(fold);
}

describe('the transient fold', () => {
  it('copies the history it was not handed by its own append, then appends to that copy in place', async () => {
    const { params, config, events } = await recordedEvents();
    const before = structuredClone(params);
    const initial = initialState(params, config).state.context.messages;
    // Paths recorded first: a memo miss takes the step through xstate, which copies (a test below).
    const paths = createChartPaths();
    transientFold(createStepMemo(paths), params, config, events);
    const memo = createStepMemo(paths);
    const histories = new Set<unknown>();
    const final = transientFold(memo, params, config, events, (fold) => histories.add(fold.context.messages));
    expect(memo.memo.stats().misses).toBe(0);
    expect(final).toEqual(plainFold(params, config, events));
    // The initial history (the header's, or taken from it) is never appended to: one copy, then that copy grows.
    expect(params).toEqual(before);
    expect(initial.length).toBe(before.messages.length);
    expect(histories.size).toBe(2);
    expect(final.context.turnCount).toBe(4);
  });

  it.each([false, true])('takes the pushed messages off again when the memo misses after an append, so xstate steps from the state as it was (emits only: %s)', async (emitsOnly) => {
    const { params, config, events } = await recordedEvents();
    // No context layer (no wait between a turn's append and the model-call cap's guard) and a cap of 3 calls: the
    // second turn follows the first one's recorded path (append, then the cap's guard answering no) and claims the
    // history; the third follows it too, appends in place, and the cap's guard answers yes: a miss.
    const capped = resolveConfig({ features: { toolResultBudget: false, historySnip: false, microcompact: false, contextCollapse: false }, limits: { maxModelCalls: 3 } }, config);
    const memo = createStepMemo(createChartPaths());
    let turnClaimed = 0;
    const final = transientFold(memo, params, capped, events, (fold) => {
      if (turnClaimed === 0 && fold.transient.array === fold.context.messages) turnClaimed = fold.context.turnCount;
    }, emitsOnly);
    expect(turnClaimed).toBe(3);
    expect(final.context.terminal).toMatchObject({ reason: 'max_turns', cap: 'maxModelCalls' });
    expect(final).toEqual(plainFold(params, capped, events));
  });

  it('hands out states that no later step changes, and shares nothing with another fold', async () => {
    const { params, config, events } = await recordedEvents();
    const memo = createStepMemo(createChartPaths());
    const fold = startTransientFold(memo, initialStateWithMemo(memo, params, config).state, config);
    const taken: Array<{ state: LoopState; copy: LoopState }> = [];
    for (const event of events) {
      transientStep(fold, event);
      const state = transientFoldState(fold);
      taken.push({ state, copy: structuredClone(state) });
    }
    for (const { state, copy } of taken) expect(state).toEqual(copy);
    expect(taken.at(-1)!.state).toEqual(plainFold(params, config, events));
    // A second fold never appends to the first fold's history.
    const first = taken.at(-1)!.state;
    const second = transientFold(memo, params, config, events);
    expect(second.context.messages).not.toBe(first.context.messages);
    expect(taken.at(-1)!.copy).toEqual(first);
  });

  it('builds only the emits when asked (replay): the same states and emitted messages, no other effect, no effect id', async () => {
    const { params, config, events } = await recordedEvents();
    const paths = createChartPaths();
    transientFold(createStepMemo(paths), params, config, events);
    const memo = createStepMemo(paths);
    const fold = startTransientFold(memo, initialStateWithMemo(memo, params, config).state, config, true);
    let plain = initialState(params, config).state;
    const kinds = new Set<string>();
    for (const event of events) {
      const expected = step(plain, event, config);
      const effects = transientStep(fold, event);
      for (const effect of effects) kinds.add(`${effect.type}:${effect.id}`);
      expect(effects.map((effect) => effect.type === 'emit' && effect.message)).toEqual(
        expected.effects.filter((effect) => effect.type === 'emit').map((effect) => effect.type === 'emit' && effect.message),
      );
      plain = expected.state;
    }
    expect(memo.memo.stats().misses).toBe(0);
    expect([...kinds]).toEqual(['emit:']);
    expect(transientFoldState(fold)).toEqual(plain);
  });

  it('hands out one frozen empty effect list from an outbox that queued nothing; without kept effects, counts ids and keeps emits', () => {
    const config = resolveConfig({});
    const context = toScratchContext(initialState({ messages: [] }, config).state.context, config);
    const none = openOutbox(context).patch().effects;
    expect(openOutbox(context).patch().effects).toBe(none);
    expect(Object.isFrozen(none)).toBe(true);
    expect(keepsEffects(context)).toBe(true);
    const quiet = toScratchContext(context, config, { array: null, emitsOnly: true });
    expect(keepsEffects(quiet)).toBe(false);
    // Pushed and skipped effects move the counter as a pushed one does; only emits are kept, without ids.
    const message = { type: 'user', uuid: 'u', message: { role: 'user', content: 'hi' } } as const;
    const out = openOutbox(quiet).push({ type: 'request_start' }).emit(message);
    expect(out.patch()).toEqual({ seq: context.seq + 2, effects: [{ type: 'emit', message, id: '' }] });
    expect(skipEffect(quiet, { turnCount: 7 })).toEqual({ turnCount: 7, seq: context.seq + 1, effects: none });
    expect(openOutbox(context).push({ type: 'request_start' }).patch()).toEqual({ seq: context.seq + 1, effects: [{ type: 'request_start', id: `${context.runId}:e${context.seq + 1}` }] });
  });

  it('fills every field of the context into a scratch context', () => {
    // A context whose every field holds a value of its own (the fields `toScratchContext` copies).
    const { config } = { config: resolveConfig({}) };
    const base = initialState({ messages: [] }, config).state.context;
    const marked = Object.fromEntries(Object.keys(base).map((key) => [key, { field: key }])) as unknown as LoopContext;
    const target = toScratchContext(base, config);
    fillContext(target, marked);
    expect(Object.keys(target).sort()).toEqual(Object.keys(toScratchContext(base, config)).sort());
    for (const key of Object.keys(base)) expect(target[key as keyof LoopContext], key).toBe(marked[key as keyof LoopContext]);
  });
});
