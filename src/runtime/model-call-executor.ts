/**
 * The model call's executor: the caller's stream turned into the run's outputs (stream events for the consumer,
 * events for the reducer), each reply's tool_use ids made unique against the run's, refused replies turned into a
 * `model_error` before anyone sees them.
 *
 * Invariant: it never throws for a failing caller (the failure is a `model_error`), and yields nothing more once the
 * run's signal is aborted or the run is over.
 */
import type { EffectOf } from '../data/effects.ts';
import type { ModelCallOptions } from '../data/deps.ts';
import type { LoopParams } from '../data/state.ts';
import { onAbort } from '../tools/abort-listeners.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ExecutorEnv, ExecutorOutput } from './executor-kinds.ts';
import { LazyAbortController } from '../tools/lazy-abort-controller.ts';
import { recordableModelEvent } from './recordable-model-output.ts';

/**
 * The caller's options. The optional members are assigned, not spread into the literal: a spread beside the
 * `signal` getter sent V8 down its generic object-building path, the largest single cost of this executor per call
 * in a profile of short runs. Same members, same order.
 */
function callOptionsOf(
  controller: LazyAbortController,
  effect: EffectOf<'call_model'>,
  env: ExecutorEnv,
  fallbackModel: LoopParams['fallbackModel'],
  thinking: LoopParams['thinking'],
  effort: LoopParams['effort'],
): ModelCallOptions {
  const { deps, config } = env;
  const options: ModelCallOptions = {
    get signal() {
      return controller.signal;
    },
    querySource: effect.querySource,
    fallbackModel,
    tools: env.tools.definitions(),
    retry: config.retry,
    clock: deps.clock,
    newId: deps.newId,
    runToken: env.runToken,
  };
  if (thinking) options.thinking = thinking;
  if (effort) options.effort = effort;
  if (config.promptCaching) options.promptCaching = config.promptCaching;
  return options;
}

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
    const stream = deps.callModel(effect.request, callOptionsOf(controller, effect, env, fallbackModel, thinking, effort));
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
