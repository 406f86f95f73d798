/**
 * The effect protocol is declared once, in the chart's `meta` (src/machine/loop-machine.ts), and derived into one
 * table (src/machine/effect-protocol.ts) that resume, the viewer and the drivers read. These tests hold the
 * declarations to the chart: a waiting state without a declaration, an effect type without a row, or an answer the
 * state would not accept fails here.
 */
import { setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { fallbackEventOf } from '../../src/runtime/effect-executors.ts';
import { answersEffect, awaitedEffectTypes, EFFECT_PROTOCOL, protocolProblems, WAITING_STATES } from '../../src/machine/effect-protocol.ts';
import { loopMachine } from '../../src/machine/loop-machine.ts';
import { EFFECT_TYPES, type Effect } from '../../src/data/effects.ts';

describe('the effect protocol', () => {
  it('every waiting state declares what it awaits, and accepts every answer it declares', () => {
    expect(protocolProblems(loopMachine)).toEqual([]);
    expect(Object.keys(WAITING_STATES)).toHaveLength(12);
  });

  it('a waiting state without its declaration is noticed (the check can fail)', () => {
    const config = loopMachine.config as unknown as { states: Record<string, object> };
    const { guards, actions } = loopMachine.implementations;
    const stripped = setup({ guards, actions } as never).createMachine({
      ...config,
      states: { ...config.states, sampling: { ...config.states['sampling'], meta: undefined } },
    } as never);
    expect(protocolProblems(stripped as never)).toEqual(['sampling waits but declares no meta.awaits']);
    const wrongAnswer = setup({ guards, actions } as never).createMachine({
      ...config,
      states: { ...config.states, runningTools: { ...config.states['runningTools'], meta: { awaits: { effects: ['run_tools'], answers: ['stop_hooks_result'] } } } },
    } as never);
    expect(protocolProblems(wrongAnswer as never)).toEqual(['runningTools does not accept its answer stop_hooks_result']);
  });

  it('has one row per effect type, and every awaited or later-answered effect has answers', () => {
    expect(Object.keys(EFFECT_PROTOCOL).sort()).toEqual([...EFFECT_TYPES].sort());
    for (const entry of Object.values(EFFECT_PROTOCOL)) {
      if (entry.kind === 'fire_and_forget') expect(entry.answers, entry.effect).toEqual([]);
      else expect(entry.answers.length, entry.effect).toBeGreaterThan(0);
      if (entry.kind === 'awaited') expect(entry.waitingIn.length, entry.effect).toBeGreaterThan(0);
    }
  });

  it('names what resume re-executes: the stop hooks of exitLadder.stopHooks, the tools of runningTools', () => {
    expect(awaitedEffectTypes({ exitLadder: 'stopHooks' })).toEqual(['run_stop_hooks']);
    expect(awaitedEffectTypes('runningTools')).toEqual(['run_tools', 'finish_tools']);
    expect(awaitedEffectTypes({ contextPipeline: 'snipPending' })).toEqual(['context_layer']);
    expect(awaitedEffectTypes('completed')).toEqual([]);
  });

  it('matches answers by id where the row says so', () => {
    const toolUse = { type: 'tool_use', id: 't1', name: 'Echo', input: {} } as const;
    const enqueued = { id: 'r:e1', type: 'enqueue_tool', toolUse, concurrencySafe: true } as Effect;
    const result = (toolUseId: string) => ({ type: 'tool_result', toolUseId, message: {} }) as never;
    expect(answersEffect(enqueued, result('t1'))).toBe(true);
    expect(answersEffect(enqueued, result('t2'))).toBe(false);
    expect(answersEffect(enqueued, { type: 'tools_finished' })).toBe(true);
    expect(answersEffect(enqueued, { type: 'abort', reason: 'user' })).toBe(false);
  });

  it("the drivers' fallback events answer the effects they stand in for", () => {
    const effects = [
      { type: 'call_model' },
      { type: 'context_layer', layer: 'snip' },
      { type: 'autocompact' },
      { type: 'reactive_compact' },
      { type: 'collapse_drain' },
      { type: 'run_stop_hooks' },
      { type: 'collect_attachments' },
      { type: 'run_tools' },
      { type: 'finish_tools' },
    ] as Effect[];
    for (const effect of effects) expect(answersEffect(effect, fallbackEventOf(effect as never)), effect.type).toBe(true);
  });
});
