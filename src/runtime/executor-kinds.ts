/**
 * The kinds of executor, and the type of the executor record (`EFFECT_EXECUTORS` in `./effect-executors.ts`): what
 * a driver may be asked to do with an effect. A driver switches over these kinds (never over effect types), so the
 * kinds are the whole vocabulary between the effects and the drivers.
 *
 * The record's type follows the chart's declarations (`src/machine/effect-protocol.ts`): an effect some event
 * answers needs an answering executor, one a state waits on also a fallback event.
 */
import type { LoopConfig } from '../config/config.ts';
import type { AnsweredEffectType, AwaitedEffectType } from '../machine/effect-protocol.ts';
import type { QueryItem, ToolUseBlock } from '../messages/types.ts';
import type { Effect, EffectOf, EffectType, ToolBatch } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Terminal } from '../data/outcomes.ts';
import type { LoopState } from '../data/state.ts';
import type { MaybePromise } from './maybe-promise.ts';
import type { LoopOptions, QueryDeps, RunErrorSource } from './query-options.ts';
import type { ToolRuntime } from '../data/tool-runtime.ts';
import type { ToolUseIdRegistry } from './unique-tool-use-ids.ts';

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

/**
 * The run as it is when the executor reads it (not when the effect was queued). The drivers implement it with
 * getters of their own class, never with closures made per run: an executor is long-lived code, and a closure it
 * calls that dies with the run costs it its optimized code at the next full GC (docs/architecture.md, "Shapes that
 * outlive a run").
 */
export interface RunView {
  readonly currentState: LoopState;
  /** Whether the run has ended (a model stream stops early). */
  readonly done: boolean;
  /** The run's one error route (`LoopOptions.onError`): for work whose failure nothing else answers. */
  raise(error: unknown, raisedBy: RunErrorSource, effect: Effect | null): void;
}

/** One output of an executor: an event for the reducer, or an item for the consumer only (stream events). */
export type ExecutorOutput = { kind: 'event'; event: LoopEvent } | { kind: 'item'; item: QueryItem };

/** What a driver's tool runtime is asked to do: tools are scheduled by each driver (a batch, a streaming session). */
export type ToolCommand =
  | { op: 'run'; batches: ToolBatch[] }
  | { op: 'enqueue'; toolUse: ToolUseBlock; concurrencySafe: boolean }
  | { op: 'finish' }
  | { op: 'discard'; reason: string };

/** Answered by a stream of outputs, in order (the model call). */
export interface StreamExecutor<E> {
  kind: 'stream';
  run(effect: E, env: ExecutorEnv, run: RunView): AsyncIterable<ExecutorOutput>;
  /**
   * The same outputs as `run`, in the same order, each handed to `sink.put` and awaited before the next is made:
   * for a driver that queues them anyway (the interpreter), without an async generator's promises per output.
   */
  forward(effect: E, env: ExecutorEnv, run: RunView, sink: OutputSink): Promise<void>;
  fallback(effect: E): LoopEvent;
}

/** Where `StreamExecutor.forward` puts each output; the promise settles when the driver has taken it. */
export interface OutputSink {
  put(output: ExecutorOutput): Promise<void>;
}

/** Answered by at most one event (none: the abort answers), ready at once when its dependency is synchronous. */
export interface OnceExecutor<E> {
  kind: 'once';
  run(effect: E, env: ExecutorEnv, run: RunView): MaybePromise<LoopEvent | null>;
  /** Fed when `run` fails; null: a failure goes unanswered, without a warning (the answer is optional). */
  fallback: ((effect: E) => LoopEvent) | null;
  /** The work touches nothing outside the process (a journal may commit it with the next entry). */
  local: boolean;
}

/** Handed to the driver's tool runtime, whose results (and `tools_finished`) answer it. */
export interface ToolsExecutor<E> {
  kind: 'tools';
  command(effect: E): ToolCommand;
  /** Fed when the round fails; null for a command that awaits no answer of its own. */
  fallback: ((effect: E) => LoopEvent) | null;
}

/** An item for the consumer, nothing else. */
export interface ItemExecutor<E> {
  kind: 'item';
  item(effect: E): QueryItem;
}

/** Work whose outcome nobody waits for (hooks that only observe); `hasWork` false: nothing to run at all. */
export interface ObserveExecutor<E> {
  kind: 'observe';
  hasWork(env: ExecutorEnv): boolean;
  /** Starts the work; a failure goes to `run.raise` (raised by a 'hook'). */
  run(effect: E, env: ExecutorEnv, run: RunView): void;
}

/** The run's end: the driver stops all work. */
export interface EndExecutor<E> {
  kind: 'end';
  terminal(effect: E): Terminal;
}

/** An executor of an effect some event answers. */
export type AnsweringExecutor<E> = StreamExecutor<E> | OnceExecutor<E> | ToolsExecutor<E>;
/** An executor of an effect a state waits on: it always has a fallback, so the state is never left waiting. */
export type AwaitedExecutor<E> = StreamExecutor<E> | (OnceExecutor<E> & { fallback: (effect: E) => LoopEvent }) | (ToolsExecutor<E> & { fallback: (effect: E) => LoopEvent });
/** An executor of a fire-and-forget effect. */
export type UnansweredExecutor<E> = ItemExecutor<E> | ObserveExecutor<E> | ToolsExecutor<E> | EndExecutor<E>;
/** Any executor. */
export type EffectExecutor<E> = AnsweringExecutor<E> | UnansweredExecutor<E>;

/** What the chart's kind of an effect asks of its executor (`src/machine/effect-protocol.ts`). */
type ExecutorFor<T extends EffectType> = T extends AwaitedEffectType
  ? AwaitedExecutor<EffectOf<T>>
  : T extends AnsweredEffectType
    ? AnsweringExecutor<EffectOf<T>>
    : UnansweredExecutor<EffectOf<T>>;

/**
 * The executor record's type: one entry per effect type; an answering one where the chart says an event answers
 * the effect, and one with a fallback event where a state waits on it.
 */
export type EffectExecutors = { readonly [T in EffectType]: ExecutorFor<T> };
