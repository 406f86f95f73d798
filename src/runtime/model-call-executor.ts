/**
 * The model call's executor: the caller's stream turned into the run's outputs (stream events for the consumer,
 * events for the reducer), each reply's tool_use ids made unique against the run's, refused replies turned into a
 * `model_error` before anyone sees them.
 *
 * Invariant: it never throws for a failing caller (the failure is a `model_error`), and yields nothing more once the
 * run's signal is aborted or the run is over.
 */
import type { EffectOf } from '../data/effects.ts';
import type { LoopParams } from '../data/state.ts';
import { onAbort } from '../tools/abort-listeners.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ExecutorEnv, ExecutorOutput } from './executor-kinds.ts';
import { LazyAbortController } from '../tools/lazy-abort-controller.ts';
import { recordableModelEvent } from './recordable-model-output.ts';

/**
 * One model call: its stream events (items) and its events, in the order the caller produced them. Ends early,
 * yielding nothing more, once the run's signal is aborted or the run (`run.done`) ended.
 */
export async function* executeModelCall(
  effect: EffectOf<'call_model'>,
  env: ExecutorEnv,
  params: Pick<LoopParams, 'fallbackModel' | 'thinking' | 'effort'>,
  run: { readonly done: boolean },
): AsyncGenerator<ExecutorOutput> {
  const { signal, deps, tools } = env;
  const { fallbackModel, thinking, effort } = params;
  // The call's own controller: the caller's listeners die with it, not pile up on the run's signal. Lazy: a
  // caller that never reads the signal (a scripted model) costs no AbortSignal.
  const controller = new LazyAbortController();
  const stop = () => controller.abort(signal.reason);
  if (signal.aborted) return;
  const detach = onAbort(signal, stop);
  try {
    const stream = deps.callModel(effect.request, {
      get signal() {
        return controller.signal;
      },
      querySource: effect.querySource,
      fallbackModel,
      tools: tools.definitions(),
      retry: env.config.retry,
      clock: deps.clock,
      newId: deps.newId,
      runToken: env.runToken,
      ...(thinking ? { thinking } : {}),
      ...(effort ? { effort } : {}),
      ...(env.config.promptCaching ? { promptCaching: env.config.promptCaching } : {}),
    });
    for await (const item of stream) {
      if (controller.aborted || run.done) return;
      if (item.kind === 'stream_event') {
        yield { kind: 'item', item: { type: 'stream_event', event: item.event } };
        continue;
      }
      // Refused as it arrives, before the reducer and the log see it: a reply the log could not give back.
      let event = recordableModelEvent(item.event);
      if (event.type === 'model_error' && item.event.type !== 'model_error') {
        yield { kind: 'event', event };
        return;
      }
      if (event.type === 'model_message') {
        event = { ...event, message: env.toolUseIds.claim(event.message) };
        if (event.message.timestamp === undefined) event.message.timestamp = deps.clock.now();
        const toolUses = event.message.message.content.filter((b) => b.type === 'tool_use');
        if (toolUses.length > 0) event.concurrencySafe = tools.concurrencySafe(toolUses);
      }
      yield { kind: 'event', event };
    }
  } catch (error) {
    if (controller.aborted || run.done) return;
    yield { kind: 'event', event: { type: 'model_error', error: { kind: 'other', message: messageOf(error) } } };
  } finally {
    detach();
  }
}
