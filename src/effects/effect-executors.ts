/**
 * The per-effect executors: how one answered effect (model call, context layer, compaction, collapse drain, stop
 * hooks, attachments, tool-use summary) is carried out and turned into the events that answer it.
 *
 * Both drivers use them: the in-process `Interpreter` (which schedules them in the background and feeds their
 * output through its channel) and the journal-driven durable driver (`src/durable`, which runs them one at a time
 * inside a journal entry). Keeping the work here, and only the scheduling in the drivers, is what stops the two
 * from drifting apart.
 *
 * Invariants: an executor never touches the reducer or a channel; it only yields (or returns) what came back.
 * `fallbackEventOf` is the event a driver feeds instead when an executor throws, so the reducer is never left
 * waiting for an answer.
 */
import type { LoopConfig } from '../config/config.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Effect, EffectOf } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { LoopParams } from '../reducer/state.ts';
import type { StopHookResult } from './deps.ts';
import { LazyAbortController } from './lazy-abort-controller.ts';
import type { LoopOptions, QueryDeps } from './query-options.ts';
import type { ToolRuntime } from './tool-runtime.ts';
import type { ToolUseIdRegistry } from './unique-tool-use-ids.ts';
import { onAbort } from './abort-listeners.ts';

/** What an executor needs from the run it belongs to. */
export interface ExecutorEnv {
  config: LoopConfig;
  deps: QueryDeps;
  tools: ToolRuntime;
  /** The run's signal: aborted when the run is aborted or over. */
  signal: AbortSignal;
  options: Pick<LoopOptions, 'stopHooks' | 'stopFailureHooks' | 'postSamplingHooks'>;
  /** The run's tool_use ids so far: each model message's ids are made unique against it (`uniqueToolUseIds`). */
  toolUseIds: ToolUseIdRegistry;
  /** `ModelCallOptions.runToken`: one object per run. */
  runToken: object;
}

/** One output of an executor: an event for the reducer, or an item for the consumer only (stream events). */
export type ExecutorOutput = { kind: 'event'; event: LoopEvent } | { kind: 'item'; item: QueryItem };

/** The effects answered by one executor call (tools are scheduled by each driver on its own). */
export type ExecutedEffect = EffectOf<
  'call_model' | 'context_layer' | 'autocompact' | 'reactive_compact' | 'collapse_drain' | 'run_stop_hooks' | 'collect_attachments'
>;

const EXECUTED_TYPES: ReadonlySet<string> = new Set<ExecutedEffect['type']>([
  'call_model', 'context_layer', 'autocompact', 'reactive_compact', 'collapse_drain', 'run_stop_hooks', 'collect_attachments',
]);

/** Whether `executeEffect` carries out this effect (the drivers schedule the rest themselves). */
export function isExecutedEffect(effect: Effect): effect is ExecutedEffect {
  return EXECUTED_TYPES.has(effect.type);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function safely<T extends { ok: boolean }>(work: () => Promise<T>): Promise<T | { ok: false; error: string }> {
  try {
    return await work();
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/**
 * One model call: its stream events (items) and its events, in the order the caller produced them. Ends early,
 * yielding nothing more, once the run's signal is aborted or `isOver()` says the run ended.
 */
export async function* executeModelCall(
  effect: EffectOf<'call_model'>,
  env: ExecutorEnv,
  params: Pick<LoopParams, 'fallbackModel' | 'thinking'>,
  isOver: () => boolean = () => false,
): AsyncGenerator<ExecutorOutput> {
  const { signal, deps, tools } = env;
  const { fallbackModel, thinking } = params;
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
      ...(env.config.promptCaching ? { promptCaching: env.config.promptCaching } : {}),
    });
    for await (const item of stream) {
      if (controller.aborted || isOver()) return;
      if (item.kind === 'stream_event') {
        yield { kind: 'item', item: { type: 'stream_event', event: item.event } };
        continue;
      }
      let event = item.event;
      if (event.type === 'model_message') {
        event = { ...event, message: env.toolUseIds.claim(event.message) };
        if (event.message.timestamp === undefined) event.message.timestamp = deps.clock.now();
        const toolUses = event.message.message.content.filter((b) => b.type === 'tool_use');
        if (toolUses.length > 0) event.concurrencySafe = tools.concurrencySafe(toolUses);
      }
      yield { kind: 'event', event };
    }
  } catch (error) {
    if (controller.aborted || isOver()) return;
    yield { kind: 'event', event: { type: 'model_error', error: { kind: 'other', message: messageOf(error) } } };
  } finally {
    detach();
  }
}

/** An answer that may be ready at once: a synchronous dependency (a pure context layer) answers without a promise. */
export type MaybePromise<T> = T | Promise<T>;

export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function then<T, R>(value: T | PromiseLike<T>, map: (value: T) => R): MaybePromise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(map) : map(value);
}

/**
 * The stop hooks, in order. An abort stops waiting for the hook in progress; the answer then reports how many hooks
 * had answered (`hookCount`), which decides between "silent" and "interrupted" (docs/loop.md §4.9.4). With no hooks the
 * answer is ready at once.
 */
export function executeStopHooks(effect: EffectOf<'run_stop_hooks'>, env: ExecutorEnv): MaybePromise<LoopEvent | null> {
  const hooks = env.options.stopHooks ?? [];
  if (hooks.length === 0) return stopHooksResult([]);
  return (async () => {
    const results: StopHookResult[] = [];
    for (const hook of hooks) {
      if (env.signal.aborted) break;
      try {
        const answer = await untilAborted(Promise.resolve(hook({ messages: effect.messages, stopHookActive: effect.stopHookActive, signal: env.signal })), env.signal);
        if (answer === ABORTED) break;
        results.push(answer);
      } catch (error) {
        if (env.signal.aborted) break;
        results.push({ blockingError: `stop hook failed: ${messageOf(error)}` });
      }
    }
    return stopHooksResult(results);
  })();
}

function stopHooksResult(results: StopHookResult[]): LoopEvent {
  const prevent = results.find((r) => r.preventContinuation);
  return {
    type: 'stop_hooks_result',
    blockingErrors: results.flatMap((r) => (r.blockingError ? [r.blockingError] : [])),
    preventContinuation: prevent !== undefined,
    ...(prevent?.stopReason !== undefined ? { stopReason: prevent.stopReason } : {}),
    hookCount: results.length,
  };
}

const ABORTED = Symbol('aborted');

/** The promise's value, or `ABORTED` as soon as the signal aborts (the promise itself is left to settle). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const detach = onAbort(signal, () => resolve(ABORTED));
    promise.then(
      (value) => {
        detach();
        resolve(value);
      },
      (error: unknown) => {
        detach();
        reject(error);
      },
    );
  });
}

/** The effects answered by exactly one event (or none, for stop hooks cut short by an abort). */
export type SingleAnswerEffect = Exclude<ExecutedEffect, EffectOf<'call_model'>>;

/**
 * The answer of a single-event effect (everything but the model call). Synchronous when its dependency is: the
 * in-process interpreter then feeds it at once, without a round trip through its channel.
 */
export function executeOnce(effect: SingleAnswerEffect, env: ExecutorEnv): MaybePromise<LoopEvent | null> {
  const { deps, signal } = env;
  switch (effect.type) {
    case 'context_layer': {
      const input = { layer: effect.layer, messages: effect.messages, tokenCount: effect.tokenCount, now: deps.clock.now(), newId: deps.newId };
      return then(deps.runContextLayer(input), (outcome): LoopEvent => ({ type: 'context_layer_result', layer: effect.layer, ...outcome }));
    }
    case 'autocompact':
      return safely(() =>
        deps.autocompact({ messages: effect.messages, tokenCount: effect.tokenCount, signal, newId: deps.newId, trigger: 'auto' }),
      ).then((outcome): LoopEvent => ({ type: 'autocompact_result', ...outcome }));
    case 'reactive_compact':
      return safely(() =>
        deps.reactiveCompact({ messages: effect.messages, tokenCount: 0, signal, newId: deps.newId, trigger: effect.trigger }),
      ).then((outcome): LoopEvent => ({ type: 'reactive_compact_result', ...outcome }));
    case 'collapse_drain':
      return deps.drainCollapse({ messages: effect.messages }).then((drained): LoopEvent => ({ type: 'collapse_drain_result', ...drained }));
    case 'collect_attachments':
      return then(deps.collectAttachments({ messages: effect.messages, newId: deps.newId }), (attachments): LoopEvent => ({ type: 'attachments_collected', attachments }));
    case 'run_stop_hooks':
      return executeStopHooks(effect, env);
  }
}

/** Every output of one executed effect, in order (the model call's stream, or the one answering event). */
export async function* executeEffect(
  effect: ExecutedEffect,
  env: ExecutorEnv,
  params: Pick<LoopParams, 'fallbackModel' | 'thinking'>,
  isOver?: () => boolean,
): AsyncGenerator<ExecutorOutput> {
  if (effect.type === 'call_model') {
    yield* executeModelCall(effect, env, params, isOver);
    return;
  }
  const event = await executeOnce(effect, env);
  if (event) yield { kind: 'event', event };
}

/** The event fed instead of an effect's answer when its executor failed (shown to the consumer as a warning). */
export function fallbackEventOf(effect: ExecutedEffect | EffectOf<'run_tools' | 'finish_tools'>): LoopEvent {
  switch (effect.type) {
    case 'call_model':
      return { type: 'model_error', error: { kind: 'other', message: 'the model call failed inside the interpreter' } };
    case 'context_layer':
      return { type: 'context_layer_result', layer: effect.layer, edits: [], tokensFreed: 0 };
    case 'autocompact':
      return { type: 'autocompact_result', ok: false, error: 'autocompact failed' };
    case 'reactive_compact':
      return { type: 'reactive_compact_result', ok: false, error: 'reactive compact failed' };
    case 'collapse_drain':
      return { type: 'collapse_drain_result', committed: 0, edits: [] };
    case 'run_stop_hooks':
      return { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false };
    case 'collect_attachments':
      return { type: 'attachments_collected', attachments: [] };
    case 'run_tools':
    case 'finish_tools':
      return { type: 'tools_finished' };
  }
}

/** The warning item that tells the consumer an executor failed (its fallback event was fed instead). */
export function executorWarning(error: unknown, newId: () => string): QueryItem {
  return { type: 'system', uuid: newId(), subtype: 'warning', content: `internal error: ${messageOf(error)}`, level: 'error' };
}

/** Starts a fire-and-forget hook: its outcome and failures are ignored (docs/loop.md §4.6: these hooks never answer). */
export function fireAndForget(work: () => Promise<unknown> | unknown): void {
  Promise.resolve()
    .then(work)
    .catch(() => undefined);
}

/** The fire-and-forget hooks of a post-sampling or stop-failure effect. */
export function runObserverHooks(effect: EffectOf<'run_post_sampling_hooks' | 'run_stop_failure_hooks'>, env: ExecutorEnv): void {
  if (effect.type === 'run_post_sampling_hooks') {
    for (const hook of env.options.postSamplingHooks ?? []) fireAndForget(() => hook({ messages: effect.messages }));
  } else {
    for (const hook of env.options.stopFailureHooks ?? []) fireAndForget(() => hook({ error: effect.error as never }));
  }
}
