/**
 * Which effects are still waiting for their answer event, for the viewer's "pending effects" panel. The effect
 * protocol the chart declares (`src/machine/effect-protocol.ts`) says which effects are fire-and-forget, which
 * events answer the others, and which effects throw earlier work away. Pure; for display only.
 */
import { answersEffect, EFFECT_PROTOCOL, isFireAndForget } from '../machine/effect-protocol.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';

/**
 * The pending effects after one step: those pending before that `event` did not answer, plus the step's new
 * effects that await an answer. A finished run has none; an effect that discards work (`discard_tools`, the
 * streaming executor's) drops what it discards.
 */
export function nextPending(pending: readonly Effect[], event: LoopEvent | null, produced: readonly Effect[], done: boolean): Effect[] {
  if (done) return [];
  let still = event ? pending.filter((effect) => !answersEffect(effect, event)) : pending.slice();
  for (const effect of produced) {
    const discarded = EFFECT_PROTOCOL[effect.type].discards;
    if (discarded.length > 0) still = still.filter((e) => !discarded.includes(e.type));
  }
  return [...still, ...produced.filter((effect) => !isFireAndForget(effect.type))];
}
