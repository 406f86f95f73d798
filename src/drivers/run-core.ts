/**
 * The run core: what every driver of the loop does the same way. It holds the run's state and its memo of the
 * chart's paths, steps events through `step()` (`stepWithMemo`), tells the run's observers each step, hands each
 * effect to its executor's kind (an exhaustive switch over the kinds of `EFFECT_EXECUTORS`, never over effect
 * types), and is the one route of an error the run survives (`raise`). What differs between drivers is only when
 * the work runs, the scheduler: the in-memory one (`./interpreter.ts`) runs it in the background and feeds its
 * answers through one queue; the journaled one (`src/durable/durable-query.ts`) runs one effect at a time inside a
 * journal entry. A scheduler subclasses `RunCore` and implements the kinds' work and `advance`.
 *
 * `driveRun` is the generator both `runLoop()` and `durableQuery()` return: it yields the run's items as they come
 * and returns its Terminal.
 *
 * Errors: a failed executor (its fallback event is fed instead), an optional answer that failed (nothing is fed),
 * a fire-and-forget hook that threw, an observer or step gate that threw: each reaches `options.onError(error,
 * { raisedBy, effect })`, or, without one, becomes a warning item for the consumer. The run goes on either way.
 */
import type { LoopConfig } from '../config/config.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import type { QueryItem } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { LoopParams, LoopState } from '../data/state.ts';
import type { StepResult } from '../reducer/step.ts';
import { createStepMemo, initialStateWithMemo, stepWithMemo } from '../reducer/stepper.ts';
import { sharedChartPaths } from '../runtime/chart-paths.ts';
import { executorOf, executorWarning, fallbackFrom, type ExecutorEnv, type ObserveExecutor, type OnceExecutor, type RunView, type StreamExecutor, type ToolCommand } from '../runtime/effect-executors.ts';
import type { QueryDeps, RunErrorSource, RunLoopOptions, StepGate, StepObserver, StepRecord } from '../runtime/query-options.ts';
import type { ResolvedRun, RunWatch } from './resolve-run.ts';
import type { ToolRuntime } from '../data/tool-runtime.ts';
import { ToolUseIdRegistry } from '../runtime/unique-tool-use-ids.ts';

/** The reason an abort carries into the loop: a string reason as given, anything else as 'abort'. */
export function abortReasonOf(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'abort';
}

export abstract class RunCore implements RunView {
  protected state!: LoopState;
  protected env!: ExecutorEnv;
  /**
   * The run's own memo, over the chart's paths shared by every run in the process (`../runtime/chart-paths.ts`): a long run
   * takes the same few paths over and over, and a short one finds them already recorded.
   */
  private readonly memo = createStepMemo(sharedChartPaths());
  private stepIndex = 0;
  protected items: QueryItem[] = [];
  protected readonly controller = new AbortController();
  /** The run's signal: the caller's, an observer's abort, and the run's own end. */
  protected readonly signal: AbortSignal;
  protected readonly config: LoopConfig;
  protected readonly deps: QueryDeps;
  protected readonly tools: ToolRuntime;
  protected readonly stepGate: StepGate | undefined;
  private readonly onStep: StepObserver | undefined;
  private readonly watch: RunWatch;
  /** Set by `releaseRunData`: the run's data is gone. */
  private released = false;
  /** The run's outcome once the reducer ended it (set by `dispatch`, with `done`). */
  terminal: Terminal | null = null;
  /**
   * Whether the run has ended (`terminal` is set): a field, not a getter over `terminal`, because the drivers and
   * the model call read it once per event and effect, and in unoptimized code each read of a getter is a call.
   */
  done = false;

  constructor(
    protected readonly options: RunLoopOptions,
    resolved: ResolvedRun,
    watch: RunWatch,
  ) {
    this.config = resolved.config;
    this.deps = resolved.deps;
    this.tools = resolved.tools;
    this.watch = watch;
    this.onStep = watch.onStep;
    this.stepGate = watch.stepGate;
    const outside = [options.signal, watch.abortSignal].filter((signal): signal is AbortSignal => signal != null);
    this.signal = outside.length === 0 ? this.controller.signal : AbortSignal.any([...outside, this.controller.signal]);
  }

  /** What executors read of the run (`RunView`): its state when they run. */
  get currentState(): LoopState {
    return this.state;
  }

  /** Items produced so far and not yet handed out. */
  takeItems(): QueryItem[] {
    const items = this.items;
    this.items = [];
    return items;
  }

  /** Takes the next piece of work. Resolves false when there is nothing left to wait for. */
  abstract advance(): Promise<boolean>;

  /**
   * `advance()` until the run is done or nothing is left to wait for: what `driveRunToEnd` does, which hands out
   * nothing between two pieces of work. A scheduler may do it in one loop of its own (the interpreter does).
   */
  async advanceToEnd(): Promise<void> {
    while (!this.done && (await this.advance()));
  }

  /** Called once the run reached its terminal, before it is returned (a journal commits what it holds). */
  async finish(): Promise<void> {}

  /** Stops the run's work (the generator was closed or the run ended), then closes its observers. */
  async shutdown(reason: string): Promise<void> {
    const watch = this.watch;
    try {
      await this.stop(reason);
    } finally {
      watch.close();
    }
  }

  protected abstract stop(reason: string): Promise<void>;

  /**
   * Lets go of the run's data once the run is over (a scheduler that stays reachable after its run:
   * src/tools/kept-shapes.ts): the state with its history, the items, the step observers, and the caller's own
   * options (prompt, initial messages, `onError`), deps, tools and config with the executors' env. What stays is the
   * run's outcome (`terminal`) and its signal (which may be the caller's). `currentState` is null afterwards.
   */
  protected releaseRunData(): void {
    this.state = null as unknown as LoopState;
    this.items = [];
    const released = this as unknown as Record<'onStep' | 'stepGate' | 'options' | 'env' | 'deps' | 'tools' | 'config' | 'watch', unknown>;
    released.onStep = undefined;
    released.stepGate = undefined;
    released.options = undefined;
    released.env = undefined;
    released.deps = undefined;
    released.tools = undefined;
    released.config = undefined;
    released.watch = undefined;
    this.released = true;
  }

  /** A fresh run's initial step, through the memo (`initialState()`'s result, without asking xstate again). */
  protected initialState(params: LoopParams): StepResult {
    return initialStateWithMemo(this.memo, params, this.config);
  }

  /** Starts from `started` (a fresh run's initial step, or a resumed state at step `resumedAt`). */
  protected begin(started: StepResult, resumedAt: number | null): void {
    this.state = started.state;
    const { config, deps, tools, signal, options } = this;
    // The token made before the literal (docs/architecture.md, "Literals of one level").
    const runToken = {};
    this.env = { config, deps, tools, signal, options, toolUseIds: new ToolUseIdRegistry(started.state.context.messages), runToken };
    if (resumedAt === null) this.observe(null, started.effects);
    else this.stepIndex = resumedAt;
  }

  /** One step: the event through `step()`, the observers told. */
  protected step(event: LoopEvent): StepRecord {
    const result = stepWithMemo(this.memo, this.state, event, this.config);
    this.state = result.state;
    return this.observe(event, result.effects);
  }

  /**
   * `step` for a scheduler that needs only the effects when nobody observes the run (no `onStep`, no step gate,
   * as in most runs without a recorder): the same step, without a record made per event for nobody.
   */
  protected stepEffects(event: LoopEvent): Effect[] {
    if (this.onStep !== undefined || this.stepGate !== undefined) return this.step(event).effects;
    const result = stepWithMemo(this.memo, this.state, event, this.config);
    this.state = result.state;
    this.stepIndex++;
    return result.effects;
  }

  private observe(event: LoopEvent | null, effects: Effect[]): StepRecord {
    const record = { index: this.stepIndex++, event, state: this.state, effects };
    if (this.onStep !== undefined) {
      try {
        this.onStep(record);
      } catch (error) {
        this.raise(error, 'observer', null);
      }
    }
    return record;
  }

  /**
   * The one route of an error the run survives: `options.onError`, or by default a warning item for the consumer
   * (none once the run is over: nobody would see it).
   */
  raise(error: unknown, raisedBy: RunErrorSource, effect: Effect | null): void {
    const warning = this.reported(error, raisedBy, effect);
    if (warning !== null && !this.done) this.items.push(warning);
  }

  /** Hands `error` to `options.onError`; without one (or when it throws), returns the default: a warning item. */
  protected reported(error: unknown, raisedBy: RunErrorSource, effect: Effect | null): QueryItem | null {
    // After the release the run is over (work that fails later is not reported, as `background` does once done).
    if (this.released) return null;
    const onError = this.options.onError;
    if (onError !== undefined) {
      try {
        onError(error, { raisedBy, effect });
        return null;
      } catch {
        // A handler that throws cannot take the error: it is shown as by default.
      }
    }
    return executorWarning(error, this.deps.newId);
  }

  /** Each effect through its executor (`EFFECT_EXECUTORS`): an exhaustive switch over the executor kinds. */
  protected dispatch<E extends Effect>(effect: E): void | Promise<void> {
    const executor = executorOf(effect);
    switch (executor.kind) {
      case 'item':
        this.items.push(executor.item(effect));
        return;
      case 'stream':
        return this.runStream(effect, executor, fallbackFrom(executor, effect));
      case 'once':
        return this.runOnce(effect, executor, fallbackFrom(executor, effect));
      case 'tools':
        return this.runTools(effect, executor.command(effect), fallbackFrom(executor, effect));
      case 'observe':
        return this.runObserve(effect, executor);
      case 'end':
        this.terminal = executor.terminal(effect);
        this.done = true;
        this.stopWork();
        return;
      default: {
        const unknownExecutor: never = executor;
        throw new TurnloopError('UNKNOWN_EXECUTOR', `unknown executor ${JSON.stringify(unknownExecutor)}`);
      }
    }
  }

  /** A model call: a stream of outputs, in order; `fallback` is fed when it fails. */
  protected abstract runStream<E extends Effect>(effect: E, executor: StreamExecutor<E>, fallback: (() => LoopEvent) | null): void | Promise<void>;
  /** Work answered by at most one event. */
  protected abstract runOnce<E extends Effect>(effect: E, executor: OnceExecutor<E>, fallback: (() => LoopEvent) | null): void | Promise<void>;
  /** Tools: the scheduler's own tool runtime use (a batch, a streaming session, one call at a time). */
  protected abstract runTools(effect: Effect, command: ToolCommand, fallback: (() => LoopEvent) | null): void | Promise<void>;
  /** Work nobody waits for. */
  protected abstract runObserve<E extends Effect>(effect: E, executor: ObserveExecutor<E>): void | Promise<void>;
  /** The run reached its terminal: stop all work. */
  protected abstract stopWork(): void;
}

/**
 * The one generator behind `runLoop()` and `durableQuery()`: the run's items as they come, then its Terminal.
 * `start` creates the run on the first `next()`, as a generator function's body would: nothing runs before.
 */
export async function* driveRun(start: () => RunCore | Promise<RunCore>): AsyncGenerator<QueryItem, Terminal, undefined> {
  const run = await start();
  try {
    while (true) {
      for (const item of run.takeItems()) yield item;
      if (run.done) break;
      if (!(await run.advance())) break;
    }
    for (const item of run.takeItems()) yield item;
    return await finished(run);
  } finally {
    await run.shutdown('closed');
  }
}

/**
 * `driveRun` collected: the same steps, the items gathered instead of yielded one by one (each yield of an async
 * generator and the consumer's `next()` are several promise hops per item, a few per turn: `runLoopToEnd`, the
 * root's `runQuery()`, child runs and forks need none of them). Nothing else differs: every event still comes
 * through the run's one queue in the order its producers put it.
 */
export async function driveRunToEnd(start: () => RunCore | Promise<RunCore>): Promise<{ items: QueryItem[]; terminal: Terminal }> {
  const run = await start();
  try {
    // Items wait in the run until the end: nobody reads them before (the run's order is theirs).
    await run.advanceToEnd();
    const items = run.takeItems();
    return { items, terminal: await finished(run) };
  } finally {
    await run.shutdown('closed');
  }
}

async function finished(run: RunCore): Promise<Terminal> {
  if (run.terminal === null) throw new TurnloopError('NO_TERMINAL', 'the loop ran out of work without reaching a terminal (a bug: the reducer always ends a run in a terminal)');
  await run.finish();
  return run.terminal;
}

export type { RunView };
