/**
 * Every effect type has one kind in the protocol the chart declares (awaited by a state, answered any time, or
 * fire-and-forget) and one executor whose kind agrees with it: an awaited effect's executor always has a fallback
 * event that answers it, so no state is left waiting when the work fails. The type checker holds the record
 * complete (`test/types/effect-executors.test-d.ts`); these tests hold the run-time table and the record together.
 */
import { setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { EFFECT_EXECUTORS, executorProblems, fallbackEventOf } from '../../src/runtime/effect-executors.ts';
import { answersEffect, EFFECT_PROTOCOL, protocolProblems, undeclaredEffectTypes } from '../../src/machine/effect-protocol.ts';
import { EFFECT_DECLARATIONS, loopMachine } from '../../src/machine/loop-machine.ts';
import { EFFECT_TYPES, type Effect, type EffectType } from '../../src/data/effects.ts';

/** The loop machine with other root declarations (`meta.effects`). */
function withDeclarations(effects: object) {
  const config = loopMachine.config as unknown as Record<string, unknown>;
  const { guards, actions } = loopMachine.implementations;
  return setup({ guards, actions } as never).createMachine({ ...config, meta: { effects } } as never);
}

/** A bare effect of `type`, enough for a fallback (which reads at most the layer). */
const sample = (type: EffectType): Effect => ({ id: 'r:e1', type, layer: 'snip' }) as unknown as Effect;

describe('every effect type has one kind and one executor', () => {
  it('each effect type of src/data/effects.ts is awaited by a state, answered any time, or fire-and-forget', () => {
    expect(undeclaredEffectTypes(loopMachine)).toEqual([]);
    expect(protocolProblems(loopMachine)).toEqual([]);
    for (const type of EFFECT_TYPES) expect(['awaited', 'answered_any_time', 'fire_and_forget'], type).toContain(EFFECT_PROTOCOL[type].kind);
  });

  it('an effect type declared nowhere, or declared twice, is named (the check can fail)', () => {
    const declared = EFFECT_DECLARATIONS;
    const withoutTerminated = withDeclarations({ ...declared, fireAndForget: declared.fireAndForget.filter((type) => type !== 'terminated') });
    expect(undeclaredEffectTypes(withoutTerminated)).toEqual(['terminated']);
    const modelCallTwice = withDeclarations({ ...declared, fireAndForget: [...declared.fireAndForget, 'call_model'] });
    expect(protocolProblems(modelCallTwice as never)).toEqual(['call_model is declared with more than one kind']);
  });

  it('the awaited effects are exactly those the root does not declare (what the type AwaitedEffectType derives)', () => {
    const rootDeclared = new Set<EffectType>([...EFFECT_DECLARATIONS.fireAndForget, ...EFFECT_DECLARATIONS.answeredAnyTime.map((a) => a.effect)]);
    const awaited = EFFECT_TYPES.filter((type) => EFFECT_PROTOCOL[type].kind === 'awaited');
    expect(awaited).toEqual(EFFECT_TYPES.filter((type) => !rootDeclared.has(type)));
    expect(awaited.length).toBeGreaterThan(0);
  });

  it("each executor's kind agrees with its effect's row", () => {
    expect(Object.keys(EFFECT_EXECUTORS).sort()).toEqual([...EFFECT_TYPES].sort());
    expect(executorProblems(EFFECT_PROTOCOL, EFFECT_EXECUTORS)).toEqual([]);
    for (const type of EFFECT_TYPES) {
      const { kind } = EFFECT_PROTOCOL[type];
      const executor = EFFECT_EXECUTORS[type];
      if (kind === 'fire_and_forget') expect(['item', 'observe', 'tools', 'end'], type).toContain(executor.kind);
      else expect(['stream', 'once', 'tools'], type).toContain(executor.kind);
      if (executor.kind === 'tools' && kind === 'fire_and_forget') expect(executor.fallback, type).toBeNull();
    }
  });

  it('a missing or mismatched executor is named (the check can fail)', () => {
    const { collect_attachments: _attachments, ...withoutAttachments } = EFFECT_EXECUTORS;
    expect(executorProblems(EFFECT_PROTOCOL, withoutAttachments)).toEqual(['collect_attachments has no executor']);
    const itemForHooks = { ...EFFECT_EXECUTORS, run_stop_hooks: EFFECT_EXECUTORS.emit };
    expect(executorProblems(EFFECT_PROTOCOL, itemForHooks)).toEqual([
      'run_stop_hooks is answered, but its item executor answers nothing',
      'run_stop_hooks is awaited, but its executor has no fallback event',
    ]);
    const answeredEmit = { ...EFFECT_EXECUTORS, emit: EFFECT_EXECUTORS.collect_attachments };
    expect(executorProblems(EFFECT_PROTOCOL, answeredEmit)).toEqual([
      'emit is fire-and-forget, but its executor has a fallback answer',
      'emit is fire-and-forget, but its executor answers',
    ]);
  });

  it('an awaited effect always has a fallback event, and it answers the effect', () => {
    for (const type of EFFECT_TYPES.filter((t) => EFFECT_PROTOCOL[t].kind === 'awaited')) {
      const effect = sample(type);
      expect(answersEffect(effect, fallbackEventOf(effect)), type).toBe(true);
    }
  });

  it('an effect whose answer is optional has no fallback: its failure goes unanswered', () => {
    expect(() => fallbackEventOf(sample('start_tool_use_summary'))).toThrow(/no fallback/);
    expect(() => fallbackEventOf(sample('emit'))).toThrow(/no fallback/);
  });
});
