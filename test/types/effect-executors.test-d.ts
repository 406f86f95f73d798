/**
 * The executor record is checked by the type checker against the chart's declarations
 * (`src/machine/effect-protocol.ts` derives the kinds from `EFFECT_DECLARATIONS`): a missing executor, an awaited
 * effect without a fallback event, or an answered effect whose executor answers nothing does not compile.
 */
import { expectTypeOf } from 'vitest';
import { EFFECT_EXECUTORS, type EffectExecutors } from '../../src/runtime/effect-executors.ts';
import type { AnsweredEffectType, AwaitedEffectType, FireAndForgetEffectType } from '../../src/machine/effect-protocol.ts';
import type { EffectType } from '../../src/data/effects.ts';

expectTypeOf(EFFECT_EXECUTORS).toMatchTypeOf<EffectExecutors>();
expectTypeOf<AwaitedEffectType | FireAndForgetEffectType | Exclude<AnsweredEffectType, AwaitedEffectType>>().toEqualTypeOf<EffectType>();

const { call_model: _modelCall, ...withoutModelCall } = EFFECT_EXECUTORS;
// @ts-expect-error: an effect type without an executor
export const incomplete: EffectExecutors = withoutModelCall;

// @ts-expect-error: an awaited effect (a state waits on the stop hooks) whose executor has no fallback event
export const noFallback: EffectExecutors = { ...EFFECT_EXECUTORS, run_stop_hooks: { ...EFFECT_EXECUTORS.run_stop_hooks, fallback: null } };

// @ts-expect-error: an answered effect whose executor answers nothing (an item for the consumer)
export const answersNothing: EffectExecutors = { ...EFFECT_EXECUTORS, collect_attachments: { kind: 'item', item: () => ({ type: 'request_start' }) } };

// A fire-and-forget effect may do work whose outcome nobody waits for.
export const observed: EffectExecutors = { ...EFFECT_EXECUTORS, request_start: { kind: 'observe', hasWork: () => false, run: () => undefined } };
