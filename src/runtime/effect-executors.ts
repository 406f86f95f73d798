/**
 * The executors: one per effect type, in one record (`EFFECT_EXECUTORS`), saying how the effect is carried out and,
 * for an effect some event answers, which event stands in for the answer when the work fails.
 *
 * Every driver reads this record: the in-process `Interpreter` (which schedules the work in the background and
 * feeds its output through its channel) and the journal-driven durable driver (`src/durable`, which runs it one
 * effect at a time inside a journal entry). A driver switches over the six kinds of executor (`./executor-kinds.ts`),
 * never over effect types, so a new effect needs its entry here and nothing in the drivers.
 *
 * Invariants:
 * - The record is complete: the type checker fails when an effect type has no entry, and when an effect the chart
 *   says is answered (`AnsweredEffectType`, from `src/machine/effect-protocol.ts`) has an executor that answers
 *   nothing, or one a state waits on has no fallback event. `test/unit/effect-executors.test.ts` holds the kinds to
 *   the protocol table at run time (`executorProblems`).
 * - An executor never touches the reducer or a channel; it only yields (or returns) what came back.
 */
import type { QueryItem } from '../messages/types.ts';
import type { Effect } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import { messageOf } from '../errors/message-of.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';
import type { EffectExecutor, EffectExecutors, ExecutorEnv, ExecutorOutput, OnceExecutor, RunView, StreamExecutor } from './executor-kinds.ts';
import { thenMaybe } from './maybe-promise.ts';
import { executeModelCall, forwardModelCall } from './model-call-executor.ts';
import { executeStopHooks } from './stop-hooks-executor.ts';

export type {
  AnsweringExecutor, AwaitedExecutor, EffectExecutor, EffectExecutors, EndExecutor, ExecutorEnv, ExecutorOutput, ItemExecutor,
  ObserveExecutor, OnceExecutor, OutputSink, RunView, StreamExecutor, ToolCommand, ToolsExecutor, UnansweredExecutor,
} from './executor-kinds.ts';
export { isPromiseLike, type MaybePromise } from './maybe-promise.ts';

async function safely<T extends { ok: boolean }>(work: () => Promise<T>): Promise<T | { ok: false; error: string }> {
  try {
    return await work();
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
}

/**
 * Starts a fire-and-forget hook: its outcome is ignored (docs/loop.md §4.6: these hooks never answer); a failure goes
 * the run's error route.
 */
function fireAndForget(work: () => Promise<unknown> | unknown, effect: Effect, run: RunView): void {
  Promise.resolve()
    .then(work)
    .catch((error: unknown) => run.raise(error, 'hook', effect));
}

/** One executor per effect type, checked against the chart's kinds (`EffectExecutors`). */
export const EFFECT_EXECUTORS: EffectExecutors = {
  emit: { kind: 'item', item: (effect) => effect.message },
  request_start: { kind: 'item', item: () => ({ type: 'request_start' }) },
  call_model: {
    kind: 'stream',
    run: (effect, env, run) => executeModelCall(effect, env, run.currentState.context.params, run),
    forward: (effect, env, run, sink) => forwardModelCall(effect, env, run.currentState.context.params, run, sink),
    fallback: () => ({ type: 'model_error', error: { kind: 'other', message: 'the model call failed inside the interpreter' } }),
  },
  context_layer: {
    kind: 'once',
    local: true,
    run: (effect, { deps }) => {
      const input = { layer: effect.layer, messages: effect.messages, tokenCount: effect.tokenCount, now: deps.clock.now(), newId: deps.newId };
      return thenMaybe(deps.runContextLayer(input), (outcome): LoopEvent => ({ type: 'context_layer_result', layer: effect.layer, ...outcome }));
    },
    fallback: (effect) => ({ type: 'context_layer_result', layer: effect.layer, edits: [], tokensFreed: 0 }),
  },
  autocompact: {
    kind: 'once',
    local: false,
    run: (effect, { deps, signal }) =>
      safely(() => deps.autocompact({ messages: effect.messages, tokenCount: effect.tokenCount, signal, newId: deps.newId, trigger: 'auto' })).then(
        (outcome): LoopEvent => ({ type: 'autocompact_result', ...outcome }),
      ),
    fallback: () => ({ type: 'autocompact_result', ok: false, error: 'autocompact failed' }),
  },
  reactive_compact: {
    kind: 'once',
    local: false,
    run: (effect, { deps, signal }) =>
      safely(() => deps.reactiveCompact({ messages: effect.messages, tokenCount: 0, signal, newId: deps.newId, trigger: effect.trigger })).then(
        (outcome): LoopEvent => ({ type: 'reactive_compact_result', ...outcome }),
      ),
    fallback: () => ({ type: 'reactive_compact_result', ok: false, error: 'reactive compact failed' }),
  },
  collapse_drain: {
    kind: 'once',
    local: false,
    run: (effect, { deps }) => deps.drainCollapse({ messages: effect.messages }).then((drained): LoopEvent => ({ type: 'collapse_drain_result', ...drained })),
    fallback: () => ({ type: 'collapse_drain_result', committed: 0, edits: [] }),
  },
  run_tools: { kind: 'tools', command: (effect) => ({ op: 'run', batches: effect.batches }), fallback: () => ({ type: 'tools_finished' }) },
  enqueue_tool: {
    kind: 'tools',
    command: (effect) => ({ op: 'enqueue', toolUse: effect.toolUse, concurrencySafe: effect.concurrencySafe }),
    // Its answer is its own result, or the round's `tools_finished` (which `finish_tools` stands in for).
    fallback: null,
  },
  finish_tools: { kind: 'tools', command: () => ({ op: 'finish' }), fallback: () => ({ type: 'tools_finished' }) },
  discard_tools: { kind: 'tools', command: (effect) => ({ op: 'discard', reason: effect.reason }), fallback: null },
  run_stop_hooks: { kind: 'once', local: false, run: (effect, env) => executeStopHooks(effect, env), fallback: () => ({ type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false }) },
  run_stop_failure_hooks: {
    kind: 'observe',
    hasWork: (env) => (env.options.stopFailureHooks ?? []).length > 0,
    run: (effect, env, run) => {
      for (const hook of env.options.stopFailureHooks ?? []) fireAndForget(() => hook({ error: effect.error as never }), effect, run);
    },
  },
  run_post_sampling_hooks: {
    kind: 'observe',
    hasWork: (env) => (env.options.postSamplingHooks ?? []).length > 0,
    run: (effect, env, run) => {
      for (const hook of env.options.postSamplingHooks ?? []) fireAndForget(() => hook({ messages: effect.messages }), effect, run);
    },
  },
  collect_attachments: {
    kind: 'once',
    local: true,
    run: (effect, { deps }) => thenMaybe(deps.collectAttachments({ messages: effect.messages, newId: deps.newId }), (attachments): LoopEvent => ({ type: 'attachments_collected', attachments })),
    fallback: () => ({ type: 'attachments_collected', attachments: [] }),
  },
  start_tool_use_summary: {
    kind: 'once',
    local: false,
    // Started after the step that asked (as a fire-and-forget hook), so it summarises the history as it is then.
    run: (effect, env, run) =>
      Promise.resolve()
        .then(() => env.deps.summarizeToolUses({ toolUseIds: effect.toolUseIds, messages: run.currentState.context.messages }))
        .then((summary): LoopEvent => ({ type: 'tool_use_summary_ready', summaryId: effect.summaryId, summary })),
    // A summary is optional: a failed one is never answered.
    fallback: null,
  },
  terminated: { kind: 'end', terminal: (effect) => effect.terminal },
};

/**
 * `EFFECT_EXECUTORS` as the drivers read it: a `Map` by effect type, each executor copied once into one fixed shape
 * (every member of every kind; null where its kind has none, `local` false). Why: the six kinds are six hidden classes, so the
 * drivers' loads of `kind`, `run` and `fallback` were megamorphic, and a keyed load by effect type on the record one
 * more; the stub cache behind such loads is emptied by every full GC, and a short run's turns then missed in it
 * again (round 12, docs/benchmarks.md). One shape keeps those loads monomorphic; a `Map` lookup has no inline cache.
 */
const DISPATCH: ReadonlyMap<string, EffectExecutor<never>> = new Map(
  Object.entries(EFFECT_EXECUTORS).map(([type, executor]) => [type, fixedShape(executor as EffectExecutor<never>)]),
);

/** One executor in the shape every entry of `DISPATCH` shares (the kind's own members, the others null). */
function fixedShape(executor: EffectExecutor<never>): EffectExecutor<never> {
  const members = executor as Partial<Record<'run' | 'forward' | 'fallback' | 'local' | 'command' | 'item' | 'hasWork' | 'terminal', unknown>>;
  const shaped = {
    kind: executor.kind,
    run: members.run ?? null,
    forward: members.forward ?? null,
    fallback: members.fallback ?? null,
    local: members.local ?? false,
    command: members.command ?? null,
    item: members.item ?? null,
    hasWork: members.hasWork ?? null,
    terminal: members.terminal ?? null,
  };
  return shaped as unknown as EffectExecutor<never>;
}

/** The executor of `effect` (typed for that effect: the record's entries are keyed by type). */
export function executorOf<E extends Effect>(effect: E): EffectExecutor<E> {
  return DISPATCH.get(effect.type) as unknown as EffectExecutor<E>;
}

/** Every output of a `stream` or `once` executor's work, in order (the model call's stream, or the one answer). */
export async function* outputsOf<E>(executor: StreamExecutor<E> | OnceExecutor<E>, effect: E, env: ExecutorEnv, run: RunView): AsyncGenerator<ExecutorOutput> {
  if (executor.kind === 'stream') {
    yield* executor.run(effect, env, run);
    return;
  }
  const event = await executor.run(effect, env, run);
  if (event) yield { kind: 'event', event };
}

/**
 * What a driver feeds instead of `effect`'s answer when its executor fails, or null when the executor has no
 * fallback event (the answer is optional, or nothing answers the effect).
 */
export function fallbackOf(effect: Effect): (() => LoopEvent) | null {
  return fallbackFrom(executorOf(effect), effect);
}

/** `fallbackOf` for a driver that holds `effect`'s executor already (no second lookup by type). */
export function fallbackFrom<E extends Effect>(executor: EffectExecutor<E>, effect: E): (() => LoopEvent) | null {
  const fallback = 'fallback' in executor ? executor.fallback : null;
  return fallback && (() => fallback(effect));
}

/** The event fed instead of an effect's answer when its executor failed (for an effect whose executor has one). */
export function fallbackEventOf(effect: Effect): LoopEvent {
  const fallback = fallbackOf(effect);
  if (!fallback) throw new TurnloopError('NO_FALLBACK', `the ${effect.type} effect has no fallback event: a failure leaves it unanswered`);
  return fallback();
}

/**
 * What is wrong between a protocol table and an executor record (nothing, for the loop's: a test holds it): an
 * effect without an executor, an answered effect whose executor answers nothing, a fire-and-forget effect whose
 * executor waits for an answer, or an awaited effect whose executor has no fallback event. The type checker says
 * the same of `EFFECT_EXECUTORS`; this says it of a chart and a record built at run time (a copy of the chart).
 */
export function executorProblems(
  protocol: Readonly<Record<string, { kind: 'awaited' | 'answered_any_time' | 'fire_and_forget' }>>,
  executors: Readonly<Record<string, EffectExecutor<never>>>,
): string[] {
  const problems: string[] = [];
  for (const [type, { kind }] of Object.entries(protocol)) {
    const executor = executors[type];
    if (!executor) {
      problems.push(`${type} has no executor`);
      continue;
    }
    const answering = executor.kind === 'stream' || executor.kind === 'once' || executor.kind === 'tools';
    const fallback = 'fallback' in executor ? executor.fallback : null;
    if (kind !== 'fire_and_forget' && !answering) problems.push(`${type} is answered, but its ${executor.kind} executor answers nothing`);
    if (kind === 'fire_and_forget' && answering && fallback) problems.push(`${type} is fire-and-forget, but its executor has a fallback answer`);
    if (kind === 'fire_and_forget' && (executor.kind === 'stream' || executor.kind === 'once')) problems.push(`${type} is fire-and-forget, but its executor answers`);
    if (kind === 'awaited' && !fallback) problems.push(`${type} is awaited, but its executor has no fallback event`);
  }
  return problems;
}

/** The warning item that tells the consumer an executor failed (its fallback event was fed instead). */
export function executorWarning(error: unknown, newId: () => string): QueryItem {
  return { type: 'system', uuid: newId(), subtype: 'warning', content: `internal error: ${messageOf(error)}`, level: 'error' };
}
