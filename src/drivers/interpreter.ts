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
 *
 * What it shares with the journaled driver (the state, the memo, the step, the observers, the switch over executor
 * kinds, the error route) is the run core (`./run-core.ts`); this is the in-memory scheduler.
 */
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import { onAbort } from '../tools/abort-listeners.ts';
import { sharedChartPaths } from '../runtime/chart-paths.ts';
import { EventChannel } from './event-channel.ts';
import { keepLatest } from '../tools/kept-shapes.ts';
import { isPromiseLike, type ExecutorOutput, type MaybePromise, type ObserveExecutor, type OnceExecutor, type StreamExecutor, type ToolCommand } from '../runtime/effect-executors.ts';
import type { RunLoopOptions } from '../runtime/query-options.ts';
import type { ResolvedRun, RunWatch } from './resolve-run.ts';
import { abortReasonOf, RunCore } from './run-core.ts';
import type { StreamingToolSession, ToolResultSink } from '../data/tool-runtime.ts';
import type { LoopParams } from '../data/state.ts';

export class Interpreter extends RunCore {
  private readonly channel = new EventChannel<ExecutorOutput>();
  private streaming: StreamingToolSession | null = null;
  /** Events of work that finished synchronously, fed before the next queued entry (see `drain`). */
  private readonly inline: LoopEvent[] = [];
  /**
   * Where `drain` reads `inline` next. Taken by index, the list emptied once drained: a `shift` per event (a few
   * per step) was a builtin call that moved the rest of the list each time, in the baseline tier about 300
   * instructions an event (round 18).
   */
  private inlineAt = 0;
  /** A drain held by the step gate from the constructor, awaited by the first `advance()`. */
  private draining: Promise<void> | null = null;

  constructor(options: RunLoopOptions, resolved: ResolvedRun, watch: RunWatch, params: LoopParams) {
    super(options, resolved, watch);
    const resumed = options.resumeFrom;
    const started = resumed ?? this.initialState(params);
    this.begin(started, resumed ? resumed.nextIndex : null);
    // Attached before any work starts, so the abort event is queued before anything the abort causes (a tool's
    // cancellation, the model call's end), whatever attached to the signal later.
    const abortedBefore = this.signal.aborted;
    if (!abortedBefore) onAbort(this.signal, this.onAbort);
    this.execute(started.effects);
    this.draining = this.drain() ?? null;
    if (abortedBefore) this.onAbort();
    // The latest interpreter stays reachable, so its hidden class (and those of the objects it made) outlives a full
    // GC between runs; it lets go of its run's data when the run ends (`stop`, src/tools/kept-shapes.ts).
    keepLatest(Interpreter, this);
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
    await this.process(entry);
    return true;
  }

  /**
   * `advance()` in one loop, for `driveRunToEnd`: the same entries in the same order, without the promise of an
   * `advance()` call and the caller's await of it for each (a few per turn, a tenth of a short run's promises).
   */
  override async advanceToEnd(): Promise<void> {
    if (this.draining) {
      const draining = this.draining;
      this.draining = null;
      await draining;
    }
    while (!this.done) {
      const entry = await this.channel.take();
      if (!entry) return;
      const processed = this.process(entry);
      if (processed) await processed;
    }
  }

  /** One queued entry: an item for the consumer, or an event fed to the reducer; then its producer is released. */
  private process(entry: { value: ExecutorOutput; processed: () => void }): Promise<void> | void {
    if (entry.value.kind === 'item') {
      this.items.push(entry.value.item);
      entry.processed();
      return;
    }
    let fed: Promise<void> | void;
    try {
      fed = this.feed(entry.value.event);
    } catch (error) {
      entry.processed();
      throw error;
    }
    if (!fed) {
      entry.processed();
      return;
    }
    return fed.finally(entry.processed);
  }

  /** Aborts background work and, unless the run already ended, drives it to a terminal. */
  protected async stop(reason: string): Promise<void> {
    if (!this.done && !this.signal.aborted) this.controller.abort(reason);
    for (let guard = 0; !this.done && guard < 10_000; guard++) {
      if (!(await this.advance())) break;
    }
    this.items = [];
    this.channel.close();
    this.releaseRunData();
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
    const inline = this.inline;
    while (this.inlineAt < inline.length) {
      const event = inline[this.inlineAt++];
      // A hole a host's ToolRuntime lets through is passed over: the shift-based drain before round 18 ended at one.
      if (event === undefined) continue;
      if (this.done) {
        inline.length = 0;
        this.inlineAt = 0;
        return;
      }
      if (this.stepGate === undefined) {
        this.execute(this.stepEffects(event));
        continue;
      }
      const record = this.step(event);
      const held = this.stepGate(record, this.signal);
      if (held) {
        const effects = record.effects;
        return held.then(
          () => {
            this.execute(effects);
            return this.drain();
          },
          (error: unknown) => {
            this.raise(error, 'observer', null);
            this.execute(effects);
            return this.drain();
          },
        );
      }
      this.execute(record.effects);
    }
    inline.length = 0;
    this.inlineAt = 0;
  }

  private execute(effects: Effect[]): void {
    // By index: a `for…of` makes an iterator and a result object per effect in unoptimized code.
    for (let i = 0; i < effects.length; i++) {
      if (this.done) return;
      this.dispatch(effects[i]);
    }
  }

  /**
   * Starts background work whose outcome comes back as events. If the work fails, the failure goes the run's error
   * route (`raise`) and `fallback` is fed instead, so the reducer is never left waiting for an answer; with no
   * fallback (an answer that is optional) nothing is fed.
   */
  private background(work: () => Promise<void>, effect: Effect, fallback: (() => LoopEvent) | null): void {
    work().catch(async (error: unknown) => {
      if (this.done) return;
      this.raise(error, 'executor', effect);
      if (fallback) await this.put(fallback());
    });
  }

  /**
   * A model call: its outputs go straight into the queue (`forward`), each put awaited before the next is made, as a
   * loop over the executor's stream would (without that stream's generator: a few promises per output).
   */
  protected runStream<E extends Effect>(effect: E, executor: StreamExecutor<E>, fallback: (() => LoopEvent) | null): void {
    this.background(() => executor.forward(effect, this.env, this, this.channel), effect, fallback);
  }

  /**
   * Work that may finish synchronously: its event is queued in `inline` at once when it did, and goes through the
   * channel (as `background`) when it returned a promise. A synchronous throw is handled like a failed promise.
   * No event (null) means the abort answers instead.
   */
  protected runOnce<E extends Effect>(effect: E, executor: OnceExecutor<E>, fallback: (() => LoopEvent) | null): void {
    let value: MaybePromise<LoopEvent | null>;
    try {
      value = executor.run(effect, this.env, this);
    } catch (error) {
      this.raise(error, 'executor', effect);
      if (fallback) this.inline.push(fallback());
      return;
    }
    if (!isPromiseLike(value)) {
      if (value) this.inline.push(value);
      return;
    }
    this.background(async () => {
      const event = await value;
      if (event) await this.put(event);
    }, effect, fallback);
  }

  protected runObserve<E extends Effect>(effect: E, executor: ObserveExecutor<E>): void {
    executor.run(effect, this.env, this);
  }

  protected stopWork(): void {
    this.streaming?.discard('run ended');
    this.streaming = null;
    if (!this.controller.signal.aborted) this.controller.abort('done');
    this.channel.close();
  }

  /** Tools: a batch runs to its end, then `tools_finished`; streamed tools go to one session per reply. */
  protected runTools(effect: Effect, command: ToolCommand, fallback: (() => LoopEvent) | null): void {
    switch (command.op) {
      case 'run':
        this.background(async () => {
          for await (const result of this.tools.runBatches(command.batches, this.signal)) await this.put(result);
          await this.put({ type: 'tools_finished' });
        }, effect, fallback);
        return;
      case 'enqueue':
        this.streamingSession().enqueue(command.toolUse, command.concurrencySafe);
        return;
      case 'finish': {
        const session = this.streaming;
        this.streaming = null;
        this.background(() => this.finishSession(session), effect, fallback);
        return;
      }
      case 'discard':
        this.streaming?.discard(command.reason);
        this.streaming = null;
        return;
      default: {
        const unknownCommand: never = command;
        throw new TurnloopError('UNKNOWN_TOOL_COMMAND', `unknown tool command ${JSON.stringify(unknownCommand)}`);
      }
    }
  }

  /** The session's remaining results (straight into the queue when it can: `finishInto`), then `tools_finished`. */
  private async finishSession(session: StreamingToolSession | null): Promise<void> {
    if (session?.finishInto) await session.finishInto(this.resultSink);
    else if (session) for await (const result of session.finish()) await this.put(result);
    await this.put({ type: 'tools_finished' });
  }

  /** `finishInto`'s sink: each result queued as an event. */
  private readonly resultSink: ToolResultSink = { put: (event) => this.put(event) };

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
