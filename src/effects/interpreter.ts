/**
 * The imperative shell around the pure reducer: executes effects, turns their outcomes into events, and feeds
 * them back through `step()`.
 *
 * Invariants:
 * - Every event reaches the reducer in one order, and that order is what a session log records, so a replay sees
 *   exactly what the live run saw. Background work reaches it through one queue (`EventChannel`); work that
 *   finished synchronously (a pure context layer, no stop hooks, no attachment collector I/O) is fed at once,
 *   right after the step that asked for it, without the round trip through the queue.
 * - Background work (model stream, tools, hooks, compactors) pauses until the reducer has taken each event it
 *   produced: nothing runs ahead of the consumer of `query()`.
 * - After the `terminated` effect no further effect is executed and all background work is aborted.
 */
import type { LoopConfig } from '../config/config.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Effect, EffectOf } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { initialState, step } from '../reducer/step.ts';
import type { StopHookResult } from './deps.ts';
import { EventChannel } from './event-channel.ts';
import { ToolUseIdRegistry } from './unique-tool-use-ids.ts';
import { LazyAbortController } from './lazy-abort-controller.ts';
import type { QueryDeps, QueryOptions, StepRecord } from './query-options.ts';
import type { StreamingToolSession, ToolRuntime } from './tool-runtime.ts';

type ChannelEntry = { kind: 'event'; event: LoopEvent } | { kind: 'item'; item: QueryItem };

export const NO_TOOLS: ToolRuntime = {
  definitions: () => [],
  concurrencySafe: () => ({}),
  runBatches: async function* () {},
  startStreaming: () => {
    throw new Error('no tools were given to query(), but the model asked for one');
  },
};

/** The reason an abort carries into the loop: a string reason as given, anything else as 'abort'. */
export function abortReasonOf(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'abort';
}

export class Interpreter {
  private state: LoopState;
  private readonly channel = new EventChannel<ChannelEntry>();
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  private readonly tools: ToolRuntime;
  private streaming: StreamingToolSession | null = null;
  private stepIndex = 0;
  private pendingItems: QueryItem[] = [];
  private readonly toolUseIds: ToolUseIdRegistry;
  /** Events of work that finished synchronously, fed before the next queued entry (see `drain`). */
  private readonly inline: LoopEvent[] = [];
  /** A drain held by the step gate from the constructor, awaited by the first `advance()`. */
  private draining: Promise<void> | null = null;
  terminal: Terminal | null = null;

  constructor(
    private readonly options: QueryOptions,
    private readonly config: LoopConfig,
    private readonly deps: QueryDeps,
    params: LoopParams,
    tools: ToolRuntime,
  ) {
    this.tools = tools;
    this.signal = options.signal ? AbortSignal.any([options.signal, this.controller.signal]) : this.controller.signal;
    const started = options.resumeFrom ?? initialState(params, config);
    this.state = started.state;
    this.toolUseIds = new ToolUseIdRegistry(started.state.context.messages);
    if (options.resumeFrom) this.stepIndex = options.resumeFrom.nextIndex;
    else this.observe(null, started.effects);
    this.execute(started.effects);
    this.draining = this.drain() ?? null;
    if (this.signal.aborted) this.onAbort();
    else this.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  get done(): boolean {
    return this.terminal !== null;
  }

  get currentState(): LoopState {
    return this.state;
  }

  /** Items produced so far and not yet handed out. */
  takeItems(): QueryItem[] {
    const items = this.pendingItems;
    this.pendingItems = [];
    return items;
  }

  /** Processes the next queued entry. Resolves false when there is nothing left to wait for. */
  async advance(): Promise<boolean> {
    if (this.draining) {
      const draining = this.draining;
      this.draining = null;
      await draining;
      return true;
    }
    const entry = await this.channel.take();
    if (!entry) return false;
    try {
      if (entry.value.kind === 'item') this.pendingItems.push(entry.value.item);
      else {
        const fed = this.feed(entry.value.event);
        if (fed) await fed;
      }
    } finally {
      entry.processed();
    }
    return true;
  }

  /** Stops everything: aborts background work and, unless the run already ended, drives it to a terminal. */
  async shutdown(reason: string): Promise<void> {
    if (!this.done && !this.signal.aborted) this.controller.abort(reason);
    for (let guard = 0; !this.done && guard < 10_000; guard++) {
      if (!(await this.advance())) break;
    }
    this.pendingItems = [];
    this.channel.close();
  }

  private readonly onAbort = () => {
    void this.put({ type: 'abort', reason: abortReasonOf(this.signal) });
  };

  private put(event: LoopEvent): Promise<void> {
    return this.channel.put({ kind: 'event', event });
  }

  private feed(event: LoopEvent): Promise<void> | void {
    this.inline.push(event);
    return this.drain();
  }

  /**
   * Steps through `inline` until it is empty; executing a step's effects may add to it (never re-entering). A
   * step gate (a debugger's breakpoint) may hold a step's effects: draining then resumes when it releases, and the
   * queue waits with it, so nothing runs ahead. Without a gate this stays synchronous.
   */
  private drain(): Promise<void> | void {
    for (let event = this.inline.shift(); event !== undefined; event = this.inline.shift()) {
      if (this.done) {
        this.inline.length = 0;
        return;
      }
      const result = step(this.state, event, this.config);
      this.state = result.state;
      const record = this.observe(event, result.effects);
      const held = this.options.stepGate?.(record, this.signal);
      if (held) {
        return held.then(() => {
          this.execute(result.effects);
          return this.drain();
        });
      }
      this.execute(result.effects);
    }
  }

  private observe(event: LoopEvent | null, effects: Effect[]): StepRecord {
    const record = { index: this.stepIndex++, event, state: this.state, effects };
    this.options.onStep?.(record);
    return record;
  }

  private execute(effects: Effect[]): void {
    for (const effect of effects) {
      if (this.done) return;
      this.run(effect);
    }
  }

  /**
   * Starts background work whose outcome comes back as events. If the work fails, the failure is shown as a
   * warning and `fallback` is fed instead, so the reducer is never left waiting for an answer.
   */
  private background(work: () => Promise<void>, fallback: () => LoopEvent): void {
    work().catch(async (error: unknown) => {
      if (this.done) return;
      this.pendingItems.push(this.warning(error));
      await this.put(fallback());
    });
  }

  /**
   * Work that may finish synchronously: its event is queued in `inline` at once when it did, and goes through the
   * channel (as `background`) when it returned a promise. A synchronous throw is handled like a failed promise.
   */
  private settle<T>(work: () => T | Promise<T>, toEvent: (value: T) => LoopEvent, fallback: () => LoopEvent): void {
    let value: T | Promise<T>;
    try {
      value = work();
    } catch (error) {
      this.pendingItems.push(this.warning(error));
      this.inline.push(fallback());
      return;
    }
    if (isPromiseLike(value)) this.background(async () => this.put(toEvent(await value)), fallback);
    else this.inline.push(toEvent(value));
  }

  private warning(error: unknown): QueryItem {
    const text = error instanceof Error ? error.message : String(error);
    return { type: 'system', uuid: this.deps.newId(), subtype: 'warning', content: `internal error: ${text}`, level: 'error' };
  }

  /** The exhaustive effect switch: one case per effect type, ending in a `never` check. */
  private run(effect: Effect): void {
    switch (effect.type) {
      case 'emit':
        this.pendingItems.push(effect.message);
        return;
      case 'request_start':
        this.pendingItems.push({ type: 'request_start' });
        return;
      case 'call_model':
        this.background(
          () => this.callModel(effect),
          () => ({ type: 'model_error', error: { kind: 'other', message: 'the model call failed inside the interpreter' } }),
        );
        return;
      case 'context_layer':
        this.settle(
          () => this.deps.runContextLayer({
            layer: effect.layer,
            messages: effect.messages,
            tokenCount: effect.tokenCount,
            now: this.deps.clock.now(),
            newId: this.deps.newId,
          }),
          (outcome) => ({ type: 'context_layer_result', layer: effect.layer, ...outcome }),
          () => ({ type: 'context_layer_result', layer: effect.layer, edits: [], tokensFreed: 0 }),
        );
        return;
      case 'autocompact':
        this.background(async () => {
          const outcome = await this.safely(() =>
            this.deps.autocompact({ messages: effect.messages, tokenCount: effect.tokenCount, signal: this.signal, newId: this.deps.newId, trigger: 'auto' }),
          );
          await this.put({ type: 'autocompact_result', ...outcome });
        }, () => ({ type: 'autocompact_result', ok: false, error: 'autocompact failed' }));
        return;
      case 'reactive_compact':
        this.background(async () => {
          const outcome = await this.safely(() =>
            this.deps.reactiveCompact({ messages: effect.messages, tokenCount: 0, signal: this.signal, newId: this.deps.newId, trigger: effect.trigger }),
          );
          await this.put({ type: 'reactive_compact_result', ...outcome });
        }, () => ({ type: 'reactive_compact_result', ok: false, error: 'reactive compact failed' }));
        return;
      case 'collapse_drain':
        this.background(async () => {
          const drained = await this.deps.drainCollapse({ messages: effect.messages });
          await this.put({ type: 'collapse_drain_result', ...drained });
        }, () => ({ type: 'collapse_drain_result', committed: 0, edits: [] }));
        return;
      case 'run_tools':
        this.background(async () => {
          for await (const result of this.tools.runBatches(effect.batches, this.signal)) await this.put(result);
          await this.put({ type: 'tools_finished' });
        }, () => ({ type: 'tools_finished' }));
        return;
      case 'enqueue_tool':
        this.streamingSession().enqueue(effect.toolUse, effect.concurrencySafe);
        return;
      case 'finish_tools': {
        const session = this.streaming;
        this.streaming = null;
        this.background(async () => {
          if (session) for await (const result of session.finish()) await this.put(result);
          await this.put({ type: 'tools_finished' });
        }, () => ({ type: 'tools_finished' }));
        return;
      }
      case 'discard_tools':
        this.streaming?.discard(effect.reason);
        this.streaming = null;
        return;
      case 'run_stop_hooks':
        if ((this.options.stopHooks ?? []).length === 0 && !this.signal.aborted) {
          this.inline.push({ type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false, hookCount: 0 });
          return;
        }
        this.background(
          () => this.runStopHooks(effect),
          () => ({ type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false }),
        );
        return;
      case 'run_stop_failure_hooks':
        for (const hook of this.options.stopFailureHooks ?? []) this.fireAndForget(() => hook({ error: effect.error as never }));
        return;
      case 'run_post_sampling_hooks':
        for (const hook of this.options.postSamplingHooks ?? []) this.fireAndForget(() => hook({ messages: effect.messages }));
        return;
      case 'collect_attachments':
        this.settle(
          () => this.deps.collectAttachments({ messages: effect.messages, newId: this.deps.newId }),
          (attachments) => ({ type: 'attachments_collected', attachments }),
          () => ({ type: 'attachments_collected', attachments: [] }),
        );
        return;
      case 'start_tool_use_summary':
        this.fireAndForget(async () => {
          const summary = await this.deps.summarizeToolUses({ toolUseIds: effect.toolUseIds, messages: this.state.context.messages });
          await this.put({ type: 'tool_use_summary_ready', summaryId: effect.summaryId, summary });
        });
        return;
      case 'terminated':
        this.terminal = effect.terminal;
        this.streaming?.discard('run ended');
        this.streaming = null;
        if (!this.controller.signal.aborted) this.controller.abort('done');
        this.channel.close();
        return;
      default: {
        const unknownEffect: never = effect;
        throw new Error(`unknown effect ${JSON.stringify(unknownEffect)}`);
      }
    }
  }

  private fireAndForget(work: () => Promise<unknown> | unknown): void {
    Promise.resolve()
      .then(work)
      .catch(() => undefined);
  }

  private async safely<T extends { ok: boolean }>(work: () => Promise<T>): Promise<T | { ok: false; error: string }> {
    try {
      return await work();
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  private streamingSession(): StreamingToolSession {
    if (!this.streaming) {
      const session = this.tools.startStreaming(this.signal);
      session.onReady(() => {
        if (this.streaming !== session) return;
        for (const result of session.takeCompleted()) void this.put(result);
      });
      this.streaming = session;
    }
    return this.streaming;
  }

  private async callModel(effect: EffectOf<'call_model'>): Promise<void> {
    // The call's own controller: the caller's listeners die with it, not pile up on the run's signal. Lazy: a
    // caller that never reads the signal (a scripted model) costs no AbortSignal.
    const controller = new LazyAbortController();
    const stop = () => controller.abort(this.signal.reason);
    if (this.signal.aborted) return;
    this.signal.addEventListener('abort', stop, { once: true });
    try {
      const stream = this.deps.callModel(effect.request, {
        get signal() {
          return controller.signal;
        },
        querySource: effect.querySource,
        fallbackModel: this.state.context.params.fallbackModel,
        tools: this.tools.definitions(),
        retry: this.config.retry,
        clock: this.deps.clock,
        newId: this.deps.newId,
        ...(this.state.context.params.thinking ? { thinking: this.state.context.params.thinking } : {}),
        ...(this.config.promptCaching ? { promptCaching: this.config.promptCaching } : {}),
      });
      for await (const item of stream) {
        if (controller.aborted || this.done) return;
        if (item.kind === 'stream_event') {
          await this.channel.put({ kind: 'item', item: { type: 'stream_event', event: item.event } });
          continue;
        }
        let event = item.event;
        if (event.type === 'model_message') {
          event = { ...event, message: this.toolUseIds.claim(event.message) };
          if (event.message.timestamp === undefined) event.message.timestamp = this.deps.clock.now();
          const toolUses = event.message.message.content.filter((b) => b.type === 'tool_use');
          if (toolUses.length > 0) event.concurrencySafe = this.tools.concurrencySafe(toolUses);
        }
        await this.put(event);
      }
    } catch (error) {
      if (controller.aborted || this.done) return;
      await this.put({ type: 'model_error', error: { kind: 'other', message: error instanceof Error ? error.message : String(error) } });
    } finally {
      this.signal.removeEventListener('abort', stop);
    }
  }

  /**
   * Runs the stop hooks in order. An abort stops waiting for the hook in progress; the result then reports how many
   * hooks had answered (`hookCount`), which decides between "silent" and "interrupted" (SPEC §4.9.4).
   */
  private async runStopHooks(effect: EffectOf<'run_stop_hooks'>): Promise<void> {
    const results: StopHookResult[] = [];
    for (const hook of this.options.stopHooks ?? []) {
      if (this.signal.aborted) break;
      try {
        const answer = await untilAborted(Promise.resolve(hook({ messages: effect.messages, stopHookActive: effect.stopHookActive, signal: this.signal })), this.signal);
        if (answer === ABORTED) break;
        results.push(answer);
      } catch (error) {
        if (this.signal.aborted) break;
        results.push({ blockingError: `stop hook failed: ${error instanceof Error ? error.message : String(error)}` });
      }
    }
    const prevent = results.find((r) => r.preventContinuation);
    await this.put({
      type: 'stop_hooks_result',
      blockingErrors: results.flatMap((r) => (r.blockingError ? [r.blockingError] : [])),
      preventContinuation: prevent !== undefined,
      ...(prevent?.stopReason !== undefined ? { stopReason: prevent.stopReason } : {}),
      hookCount: results.length,
    });
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

const ABORTED = Symbol('aborted');

/** The promise's value, or `ABORTED` as soon as the signal aborts (the promise itself is left to settle). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
