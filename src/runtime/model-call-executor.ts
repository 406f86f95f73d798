/**
 * The model call's executor: the caller's stream turned into the run's outputs (stream events for the consumer,
 * events for the reducer), each reply's tool_use ids made unique against the run's, refused replies turned into a
 * `model_error` before anyone sees them.
 *
 * Invariant: it never throws for a failing caller (the failure is a `model_error`), and yields nothing more once the
 * run's signal is aborted or the run is over.
 */
import type { EffectOf } from '../data/effects.ts';
import type { EventOf, LoopEvent } from '../data/events.ts';
import type { AssistantMessage, StreamEventItem, ToolUseBlock } from '../messages/types.ts';
import type { ModelCallOptions, ModelStreamItem } from '../data/deps.ts';
import type { LoopParams } from '../data/state.ts';
import { onAbort } from '../tools/abort-listeners.ts';
import { messageOf } from '../errors/message-of.ts';
import type { ExecutorEnv, ExecutorOutput, OutputSink } from './executor-kinds.ts';
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
 * The reply event as the reducer and the log get it: `message` with its claimed ids, and the tool calls'
 * concurrency flags when it has any. A plain `{ type, message }` event (every caller of ours) becomes one literal of
 * a fixed shape; any other keeps its own members in their order (the log's bytes follow it), by a spread. Not by a
 * spread every time: V8 (Node 20) gives a spread copy that gains a member (`concurrencySafe`) a new hidden class on
 * every call, about a microsecond and a shape per reply that every reader of the event then meets anew.
 */
function claimedModelMessage(
  event: EventOf<'model_message'>,
  message: AssistantMessage,
  concurrencySafe: Record<string, boolean> | undefined,
): EventOf<'model_message'> {
  if (hasTypeAndMessageOnly(event)) {
    return concurrencySafe === undefined ? { type: 'model_message', message } : { type: 'model_message', message, concurrencySafe };
  }
  const copy: EventOf<'model_message'> = { ...event, message };
  if (concurrencySafe !== undefined) copy.concurrencySafe = concurrencySafe;
  return copy;
}

/** True when `event`'s own enumerable keys are exactly `type` then `message`. */
function hasTypeAndMessageOnly(event: object): boolean {
  let count = 0;
  for (const key in event) {
    if (!Object.hasOwn(event, key)) return false;
    if (key !== (count === 0 ? 'type' : 'message')) return false;
    if (++count > 2) return false;
  }
  return count === 2;
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
  const call = startModelCall(effect, env, params);
  if (call === null) return;
  try {
    for await (const item of call.stream) {
      const output = outputOf(item, env, call.controller, run);
      if (output === null) return;
      yield output;
      if (endsCall(item, output)) return;
    }
  } catch (error) {
    if (call.controller.aborted || run.done) return;
    yield failureOf(error);
  } finally {
    call.detach();
  }
}

/**
 * `executeModelCall`'s outputs handed to `sink` one by one, each awaited before the caller's stream is read on (the
 * same order and the same backpressure as a consumer of the generator that awaits each put): the interpreter's
 * model call, without the generator's promises per output.
 */
export async function forwardModelCall(
  effect: EffectOf<'call_model'>,
  env: ExecutorEnv,
  params: Pick<LoopParams, 'fallbackModel' | 'thinking' | 'effort'>,
  run: { readonly done: boolean },
  sink: OutputSink,
): Promise<void> {
  const call = startModelCall(effect, env, params);
  if (call === null) return;
  try {
    for await (const item of call.stream) {
      const output = outputOf(item, env, call.controller, run);
      if (output === null) return;
      await sink.put(output);
      if (endsCall(item, output)) return;
    }
  } catch (error) {
    if (call.controller.aborted || run.done) return;
    await sink.put(failureOf(error));
  } finally {
    call.detach();
  }
}

/** A started call: the caller's stream, the call's own controller, and the listener on the run's signal to detach. */
interface StartedModelCall {
  stream: AsyncIterable<ModelStreamItem>;
  controller: LazyAbortController;
  detach: () => void;
}

/** Calls the model; null when the run's signal is already aborted (nothing is called). */
function startModelCall(effect: EffectOf<'call_model'>, env: ExecutorEnv, params: Pick<LoopParams, 'fallbackModel' | 'thinking' | 'effort'>): StartedModelCall | null {
  const { signal, deps } = env;
  // The call's own controller: the caller's listeners die with it, not pile up on the run's signal. Lazy: a
  // caller that never reads the signal (a scripted model) costs no AbortSignal.
  const controller = new LazyAbortController();
  const stop = () => controller.abort(signal.reason);
  if (signal.aborted) return null;
  const detach = onAbort(signal, stop);
  try {
    const stream = deps.callModel(effect.request, callOptionsOf(controller, effect, env, params.fallbackModel, params.thinking, params.effort));
    return { stream, controller, detach };
  } catch (error) {
    // A caller that throws instead of returning a stream: its failure goes out as the stream's would.
    return { stream: throwing(error), controller, detach };
  }
}

/** A stream that fails at once with `error`. */
async function* throwing(error: unknown): AsyncGenerator<ModelStreamItem> {
  throw error;
}

/** The output of one item of the caller's stream: null when the call ends here with nothing more (aborted, or the run is over). */
function outputOf(item: ModelStreamItem, env: ExecutorEnv, controller: LazyAbortController, run: { readonly done: boolean }): ExecutorOutput | null {
  if (controller.aborted || run.done) return null;
  if (item.kind === 'stream_event') return streamEventOutput(item.event);
  // Refused as it arrives, before the reducer and the log see it: a reply the log could not give back.
  let event = recordableModelEvent(item.event);
  if (event.type === 'model_error' && item.event.type !== 'model_error') return { kind: 'event', event };
  if (event.type === 'model_message') {
    const message = env.toolUseIds.claim(event.message);
    if (message.timestamp === undefined) message.timestamp = env.deps.clock.now();
    const toolUses = toolUsesOf(message);
    const concurrencySafe = toolUses === null ? undefined : env.tools.concurrencySafe(toolUses);
    event = claimedModelMessage(event, message, concurrencySafe);
  }
  return { kind: 'event', event };
}

/** The reply's tool_use blocks in order, or null when it has none (a loop: a callback costs more while cold). */
function toolUsesOf(message: AssistantMessage): ToolUseBlock[] | null {
  let toolUses: ToolUseBlock[] | null = null;
  for (const block of message.message.content) if (block.type === 'tool_use') (toolUses ??= []).push(block);
  return toolUses;
}

/** True for a reply refused as it arrived (its `model_error`): nothing more of the stream is read. */
function endsCall(item: ModelStreamItem, output: ExecutorOutput): boolean {
  return output.kind === 'event' && output.event.type === 'model_error' && item.kind === 'event' && item.event.type !== 'model_error';
}

/** A stream event for the consumer (most of a real reply's items): each level its own literal (docs/architecture.md, "Literals of one level"). */
function streamEventOutput(event: unknown): ExecutorOutput {
  const item: StreamEventItem = { type: 'stream_event', event };
  return { kind: 'item', item };
}

function failureOf(error: unknown): ExecutorOutput {
  const failure = { kind: 'other' as const, message: messageOf(error) };
  const event: LoopEvent = { type: 'model_error', error: failure };
  return { kind: 'event', event };
}
