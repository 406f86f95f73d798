/**
 * What the loop waits for after a step, read from the step's effects: the model, a context layer, a compactor, a
 * drain, the tools (a batch, or the streaming executor's tools once the reply is finished), the stop hooks or the
 * attachments. Which effects are waited on is the protocol table's word (`isAwaitedEffect`); the record below only
 * names each one's abstract answer alphabet, and the type checker asks for an entry per awaited effect. Pure: a
 * new executor list is returned, never mutated.
 */
import { EFFECT_PROTOCOL, isAwaitedEffect, type AwaitedEffectType } from '../machine/effect-protocol.ts';
import type { ToolUseBlock } from '../messages/types.ts';
import type { Effect, EffectOf } from '../data/effects.ts';
import type { Waiting } from './abstract-answers.ts';

export interface WaitState {
  waiting: Waiting | null;
  /** Tool uses handed to the streaming executor and not yet finished. */
  executor: readonly ToolUseBlock[];
}

export const NOTHING_PENDING: WaitState = { waiting: null, executor: [] };

/** The wait an awaited effect starts, from the wait before it (finishing the tools hands over the executor's). */
const WAIT_FOR: { [T in AwaitedEffectType]: (effect: EffectOf<T>, executor: readonly ToolUseBlock[]) => WaitState } = {
  call_model: (_, executor) => ({ waiting: { kind: 'model' }, executor }),
  context_layer: (effect, executor) => ({ waiting: { kind: 'layer', layer: effect.layer }, executor }),
  autocompact: (_, executor) => ({ waiting: { kind: 'autocompact' }, executor }),
  reactive_compact: (_, executor) => ({ waiting: { kind: 'reactive' }, executor }),
  collapse_drain: (_, executor) => ({ waiting: { kind: 'drain' }, executor }),
  run_tools: (effect, executor) => ({ waiting: { kind: 'tools', toolUses: effect.batches.flatMap((b) => b.toolUses) }, executor }),
  finish_tools: (_, executor) => ({ waiting: { kind: 'tools', toolUses: [...executor] }, executor: [] }),
  run_stop_hooks: (_, executor) => ({ waiting: { kind: 'stop_hooks' }, executor }),
  collect_attachments: (_, executor) => ({ waiting: { kind: 'attachments' }, executor }),
};

/** The wait after `effects`, starting from `from` (the last effect that asks for an answer wins). */
export function waitAfter(effects: readonly Effect[], from: WaitState): WaitState {
  let { waiting, executor } = from;
  for (const e of effects) {
    if (isAwaitedEffect(e)) ({ waiting, executor } = (WAIT_FOR[e.type] as (effect: Effect, executor: readonly ToolUseBlock[]) => WaitState)(e, executor));
    // The streaming executor's bookkeeping: a queued tool joins it, an effect that discards the queued tools empties it.
    else if (e.type === 'enqueue_tool') executor = [...executor, e.toolUse];
    else if (EFFECT_PROTOCOL[e.type].discards.includes('enqueue_tool')) executor = [];
  }
  return { waiting, executor };
}
