/**
 * An adversarial environment: everything outside the pure reducer, as data. The fake interpreter
 * (`../fake-interpreter.ts`) answers every effect from it. Every script cycles (`list[i % length]`), so an
 * environment is infinite: a stop hook that always blocks, a model that always truncates or a collapse store that
 * always commits keeps doing so, and only the engine's guards and caps can end the run.
 */
import fc from 'fast-check';
import { resolveConfig, type LoopConfig } from '../../../src/config/config.ts';
import { featuresArb } from '../../helpers/arbitraries.ts';
import type { Message } from '../../../src/messages/types.ts';
import type { LoopParams } from '../../../src/data/state.ts';
import { modelScriptArb, type ModelOutcome } from './model-outcomes.ts';

export type ToolOutcome = {
  kind: 'ok' | 'error' | 'prevent_continuation';
  /** The executor reports the result twice (the engine must ignore the second). */
  duplicate: boolean;
};

export type StopHookAnswer = 'allow' | 'block' | 'prevent' | 'block_and_prevent';

export interface Environment {
  config: LoopConfig;
  params: LoopParams;
  model: ModelOutcome[];
  tools: ToolOutcome[];
  /** Sort keys that permute the results of tools running at the same time ("slow" tools arrive late). */
  toolOrder: number[];
  stopHooks: StopHookAnswer[];
  autocompact: boolean[];
  reactiveCompact: boolean[];
  /** Collapses committed by each drain (0 = nothing to drain). */
  collapseDrain: number[];
  /** Tokens freed by each context-layer answer. */
  layerFreed: number[];
  /**
   * Whether each context-layer answer also edits the history (clears the first tool result, as microcompact
   * does: a change in the middle of the history); absent: never.
   */
  layerEdits?: boolean[];
  /** Whether each attachment collection brings a queued command. */
  attachments: boolean[];
  /** Deliver an abort after this many events (if the run lasts that long). */
  abort: { afterEvents: number; reason: string } | null;
}

/** Undefined three times out of four. */
function rarely<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}

export const QUERY_SOURCES = ['repl_main_thread', 'sdk', 'compact', 'session_memory', 'agent:x'] as const;


/** Mostly the loop's constants (docs/loop.md) (3 recoveries, 3 autocompact failures); small caps so that runs stay short. */
export const configArb: fc.Arbitrary<LoopConfig> = fc
  .record({
    features: featuresArb,
    model: fc.constantFrom('claude-sonnet-4-5', 'claude-3-5-haiku'),
    maxOutputTokensRecovery: fc.oneof({ weight: 4, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 4 }) }),
    autocompactMaxFailures: fc.oneof({ weight: 4, arbitrary: fc.constant(3) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }) }),
    maxStopHookBlocking: fc.integer({ min: 0, max: 6 }),
    maxModelCalls: fc.integer({ min: 1, max: 40 }),
  })
  .map(({ features, model, ...limits }) => resolveConfig({ sessionId: 'prop', model, features, limits }));

export const paramsArb: fc.Arbitrary<LoopParams> = fc
  .record({
    querySource: fc.constantFrom(...QUERY_SOURCES),
    fallbackModel: fc.option(fc.constantFrom('claude-opus-4-1', 'claude-sonnet-4-5'), { nil: undefined }),
    maxTurns: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
    maxOutputTokensOverride: rarely(fc.constant(16_000)),
    tokenBudget: fc.option(fc.oneof(fc.constantFrom(0, 1_000), fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 3_000, max: 200_000 })), {
      nil: undefined,
    }),
    taskBudget: rarely(fc.record({ total: fc.integer({ min: 1, max: 500_000 }) })),
    /** A resumed history whose last reported usage is already near (or over) the thresholds. */
    priorInputTokens: fc.option(fc.integer({ min: 100_000, max: 260_000 }), { nil: undefined }),
  })
  .map(({ priorInputTokens, ...rest }) => {
    const prior: Message[] =
      priorInputTokens === undefined
        ? []
        : [
            { type: 'user', uuid: 'u-1', message: { role: 'user', content: 'earlier' } },
            {
              type: 'assistant',
              uuid: 'a-1',
              message: {
                id: 'msg-prior',
                role: 'assistant',
                model: 'claude-sonnet-4-5',
                content: [{ type: 'text', text: 'earlier answer' }],
                stop_reason: 'end_turn',
                usage: { input_tokens: priorInputTokens, output_tokens: 10 },
              },
            },
          ];
    const params: LoopParams = {
      messages: [...prior, { type: 'user', uuid: 'u0', message: { role: 'user', content: 'hello' } }],
      systemPrompt: ['You are a test.'],
      tools: ['Read', 'Bash', 'Grep'],
      runId: 'run',
      startedAt: 0,
    };
    // Only defined keys: the params must stay plain JSON (no `undefined` values).
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) (params as unknown as Record<string, unknown>)[key] = value;
    return params;
  });

const toolOutcomeArb: fc.Arbitrary<ToolOutcome> = fc.record({
  kind: fc.oneof(
    { weight: 6, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constant('error' as const) },
    { weight: 1, arbitrary: fc.constant('prevent_continuation' as const) },
  ),
  duplicate: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
});

const stopHookArb: fc.Arbitrary<StopHookAnswer> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('allow' as const) },
  { weight: 3, arbitrary: fc.constant('block' as const) },
  { weight: 1, arbitrary: fc.constant('prevent' as const) },
  { weight: 1, arbitrary: fc.constant('block_and_prevent' as const) },
);

const abortArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 1,
    arbitrary: fc.record({
      afterEvents: fc.integer({ min: 0, max: 120 }),
      reason: fc.constantFrom('interrupt', 'user_cancel', 'timeout'),
    }),
  },
);

/** A compact, readable form of an environment: what fast-check prints for a (shrunk) counterexample. */
export function summarizeEnvironment(env: Environment): string {
  const features = Object.entries(env.config.features).filter(([, on]) => on).map(([name]) => name);
  const { maxOutputTokensRecovery, autocompactMaxFailures, maxStopHookBlocking, maxModelCalls } = env.config.limits;
  const { messages, systemPrompt, tools, runId, startedAt, ...params } = env.params;
  const model = env.model.map((o) =>
    o.kind === 'reply' ? `reply(${o.reply.blocks.map((b) => (b.kind === 'tool_use' ? `tool_use${b.safe ? ':safe' : ''}${b.early ? ':early' : ''}` : b.kind)).join(',')}${o.reply.ending === 'normal' ? '' : ` ⇒ ${o.reply.ending}`}${o.reply.usage ? ` usage ${o.reply.usage.input_tokens}/${o.reply.usage.output_tokens}` : ''})` : o.kind,
  );
  return JSON.stringify({
    model: env.config.model,
    features,
    limits: { maxOutputTokensRecovery, autocompactMaxFailures, maxStopHookBlocking, maxModelCalls },
    params: { ...params, history: messages.length },
    script: { model, tools: env.tools.map((t) => t.kind + (t.duplicate ? '×2' : '')), stopHooks: env.stopHooks, autocompact: env.autocompact, reactiveCompact: env.reactiveCompact, collapseDrain: env.collapseDrain, layerFreed: env.layerFreed, abort: env.abort },
  });
}

/** Attaches `summarizeEnvironment` as fast-check's printer (a symbol key: invisible to JSON and structuredClone). */
export function withSummary(env: Environment): Environment {
  Object.defineProperty(env, fc.toStringMethod, { value: () => summarizeEnvironment(env), enumerable: false });
  return env;
}

const rawEnvironmentArb: fc.Arbitrary<Environment> = fc.record({
  config: configArb,
  params: paramsArb,
  model: modelScriptArb,
  tools: fc.array(toolOutcomeArb, { minLength: 1, maxLength: 5 }),
  toolOrder: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 8 }),
  stopHooks: fc.array(stopHookArb, { minLength: 1, maxLength: 5 }),
  autocompact: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
  reactiveCompact: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
  collapseDrain: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 4 }),
  layerFreed: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200_000 })), { minLength: 1, maxLength: 4 }),
  attachments: fc.array(fc.boolean(), { minLength: 1, maxLength: 3 }),
  abort: abortArb,
});

export const environmentArb: fc.Arbitrary<Environment> = rawEnvironmentArb.map(withSummary);

/** An environment with some fields forced (e.g. a query source, or a feature), for a focused property. */
export function environmentWith(
  patch: (env: Environment) => Environment,
  base: fc.Arbitrary<Environment> = environmentArb,
): fc.Arbitrary<Environment> {
  return base.map((env) => withSummary(patch(env)));
}
