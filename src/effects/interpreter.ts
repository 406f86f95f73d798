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
import type { Effect } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';
import type { Terminal } from '../reducer/outcomes.ts';
import type { LoopParams, LoopState } from '../reducer/state.ts';
import { createStepMemo, initialStateWithMemo, stepWithMemo } from '../reducer/stepper.ts';
import { onAbort } from './abort-listeners.ts';
import { sharedChartPaths } from './chart-paths.ts';
import { EventChannel } from './event-channel.ts';
import {
  executorOf, executorWarning, fallbackOf, isPromiseLike, type ExecutorEnv, type ExecutorOutput, type MaybePromise, type RunView, type ToolCommand,
} from './effect-executors.ts';
import { ToolUseIdRegistry } from './unique-tool-use-ids.ts';
import type { QueryDeps, RunLoopOptions, StepRecord } from './query-options.ts';
import type { StreamingToolSession, ToolRuntime } from './tool-runtime.ts';

type ChannelEntry = ExecutorOutput;

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

export class Interpreter implements RunView {
  private state: LoopState;
  private readonly channel = new EventChannel<ChannelEntry>();
  private readonly controller = new AbortController();
  private readonly signal: AbortSignal;
  private readonly tools: ToolRuntime;
  private readonly env: ExecutorEnv;
  private streaming: StreamingToolSession | null = null;
  private stepIndex = 0;
  private pendingItems: QueryItem[] = [];
  private readonly toolUseIds: ToolUseIdRegistry;
  /** Events of work that finished synchronously, fed before the next queued entry (see `drain`). */
  private readonly inline: LoopEvent[] = [];
  /** A drain held by the step gate from the constructor, awaited by the first `advance()`. */
  private draining: Promise<void> | null = null;
  terminal: Terminal | null = null;
  /** The run's memo, over the chart's paths shared by every run in the process (`chart-paths.ts`). */
  private readonly memo = createStepMemo(sharedChartPaths());

  constructor(
    private readonly options: RunLoopOptions,
    private readonly config: LoopConfig,
    private readonly deps: QueryDeps,
    params: LoopParams,
    tools: ToolRuntime,
  ) {
    this.tools = tools;
    this.signal = options.signal ? AbortSignal.any([options.signal, this.controller.signal]) : this.controller.signal;
    const started = options.resumeFrom ?? initialStateWithMemo(this.memo, params, config);
    this.state = started.state;
    this.toolUseIds = new ToolUseIdRegistry(started.state.context.messages);
    this.env = { config, deps, tools, signal: this.signal, options, toolUseIds: this.toolUseIds, runToken: {} };
    if (options.resumeFrom) this.stepIndex = options.resumeFrom.nextIndex;
    else this.observe(null, started.effects);
    // Attached before any work starts, so the abort event is queued before anything the abort causes (a tool's
    // cancellation, the model call's end), whatever attached to the signal later.
    const abortedBefore = this.signal.aborted;
    if (!abortedBefore) onAbort(this.signal, this.onAbort);
    this.execute(started.effects);
    this.draining = this.drain() ?? null;
    if (abortedBefore) this.onAbort();
  }

  get done(): boolean {
    return this.terminal !== null;
  }

  /** What executors read of the run (`RunView`): its state when they run. */
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
      const result = stepWithMemo(this.memo, this.state, event, this.config);
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
   * warning and `fallback` is fed instead, so the reducer is never left waiting for an answer; with no fallback
   * (an answer that is optional) the failure is dropped.
   */
  private background(work: () => Promise<void>, fallback: (() => LoopEvent) | null): void {
    work().catch(async (error: unknown) => {
      if (this.done || !fallback) return;
      this.pendingItems.push(executorWarning(error, this.deps.newId));
      await this.put(fallback());
    });
  }

  /**
   * Work that may finish synchronously: its event is queued in `inline` at once when it did, and goes through the
   * channel (as `background`) when it returned a promise. A synchronous throw is handled like a failed promise.
   * No event (null) means the abort answers instead.
   */
  private settle(work: () => MaybePromise<LoopEvent | null>, fallback: (() => LoopEvent) | null): void {
    let value: MaybePromise<LoopEvent | null>;
    try {
      value = work();
    } catch (error) {
      if (!fallback) return;
      this.pendingItems.push(executorWarning(error, this.deps.newId));
      this.inline.push(fallback());
      return;
    }
    if (!isPromiseLike(value)) {
      if (value) this.inline.push(value);
      return;
    }
    this.background(async () => {
      const event = await value;
      if (event) await this.put(event);
    }, fallback);
  }

  /** Queues everything a stream yields (a model call's stream events, then its events), in order. */
  private async pump(outputs: AsyncIterable<ExecutorOutput>): Promise<void> {
    for await (const output of outputs) await this.channel.put(output);
  }

  /** Each effect through its executor (`EFFECT_EXECUTORS`): an exhaustive switch over the executor kinds. */
  private run<E extends Effect>(effect: E): void {
    const executor = executorOf(effect);
    switch (executor.kind) {
      case 'item':
        this.pendingItems.push(executor.item(effect));
        return;
      case 'stream':
        this.background(() => this.pump(executor.run(effect, this.env, this)), fallbackOf(effect));
        return;
      case 'once':
        this.settle(() => executor.run(effect, this.env, this), fallbackOf(effect));
        return;
      case 'tools':
        this.runTools(executor.command(effect), fallbackOf(effect));
        return;
      case 'observe':
        executor.run(effect, this.env);
        return;
      case 'end':
        this.terminal = executor.terminal(effect);
        this.streaming?.discard('run ended');
        this.streaming = null;
        if (!this.controller.signal.aborted) this.controller.abort('done');
        this.channel.close();
        return;
      default: {
        const unknownExecutor: never = executor;
        throw new Error(`unknown executor ${JSON.stringify(unknownExecutor)}`);
      }
    }
  }

  /** Tools: a batch runs to its end, then `tools_finished`; streamed tools go to one session per reply. */
  private runTools(command: ToolCommand, fallback: (() => LoopEvent) | null): void {
    switch (command.op) {
      case 'run':
        this.background(async () => {
          for await (const result of this.tools.runBatches(command.batches, this.signal)) await this.put(result);
          await this.put({ type: 'tools_finished' });
        }, fallback);
        return;
      case 'enqueue':
        this.streamingSession().enqueue(command.toolUse, command.concurrencySafe);
        return;
      case 'finish': {
        const session = this.streaming;
        this.streaming = null;
        this.background(async () => {
          if (session) for await (const result of session.finish()) await this.put(result);
          await this.put({ type: 'tools_finished' });
        }, fallback);
        return;
      }
      case 'discard':
        this.streaming?.discard(command.reason);
        this.streaming = null;
        return;
      default: {
        const unknownCommand: never = command;
        throw new Error(`unknown tool command ${JSON.stringify(unknownCommand)}`);
      }
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
}
