/**
 * Makes a model call atomic for simulations: the wrapped caller (the real Anthropic adapter on the real SDK)
 * runs to its end, then its items are handed on in the same order.
 *
 * Why: a live stream arrives over a socket, and tools started by the streaming executor finish on their own
 * schedule; which of the two the loop sees first would then depend on timing. Buffered, the whole reply is
 * delivered through promise callbacks only, so the order of events (and the JSON output) is the same on every
 * run. What the loop sees is unchanged: the same messages, retries and stream fallbacks, in the same order.
 */
import type { ModelCaller, ModelStreamItem } from '../data/deps.ts';

export function bufferedModelCaller(inner: ModelCaller): ModelCaller {
  return async function* buffered(request, options) {
    const items: ModelStreamItem[] = [];
    for await (const item of inner(request, options)) items.push(item);
    yield* items;
  };
}
