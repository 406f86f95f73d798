/**
 * `queueOne`: what an action that queues exactly one effect returns, without opening an outbox.
 *
 * Why: most of a tool turn's actions queue one effect (a context layer, the model call, post-sampling hooks, the
 * tools' finish, attachments, the next iteration's start, a tool's result). Through an outbox each built a
 * nine-member literal and made three or four calls (open, push, its id, the patch); a cold turn runs these in V8's
 * baseline tier, where every member and call is an inline-cache call, and the outbox was about a fifth of the
 * reducer's instructions (docs/benchmarks.md, "Round 18: core").
 *
 * Invariant: the same patch, the same effect (its id written last, as `push` does) and the same counter as
 * `openOutbox(context).push(effect).patchWith(fields)` (or `.patch()` without fields), in every fold: when effects
 * are not kept (`keepsEffects`), the counter still moves, an `emit` is kept without an id and any other effect is
 * dropped (`test/unit/actions-queue-one.test.ts` holds the two equal).
 */
import type { Effect } from '../data/effects.ts';
import { keepsEffects, NO_EFFECTS, type ContextPatch, type EffectDraft, type MachineContext } from './machine-context.ts';

type QueuedPatch = { seq: number; effects: Effect[] };

/** `effect` must be a fresh object (every caller passes a literal): it gets its id in place. */
export function queueOne(context: MachineContext, effect: EffectDraft): QueuedPatch;
/** The same, with the context fields the action changes: `fields` must be a fresh literal; the counter and the list are written into it. */
export function queueOne<T extends ContextPatch>(context: MachineContext, effect: EffectDraft, fields: T): QueuedPatch & T;
export function queueOne(context: MachineContext, effect: EffectDraft, fields?: ContextPatch): QueuedPatch {
  const seq = context.seq + 1;
  let effects: Effect[];
  if (keepsEffects(context)) {
    (effect as Effect).id = `${context.runId}:e${seq}`;
    effects = [effect as Effect];
  } else if (effect.type === 'emit') {
    (effect as Effect).id = '';
    effects = [effect as Effect];
  } else effects = NO_EFFECTS;
  if (fields === undefined) return { seq, effects };
  const patch = fields as QueuedPatch & ContextPatch;
  patch.seq = seq;
  patch.effects = effects;
  return patch;
}
