/**
 * fast-check arbitraries for the reducer's inputs: configs, params, every event type (valid or out of place),
 * and scripts for `ScriptedWorld`. Ids come from small pools so that generated events often match what the
 * loop waits for (a `tool_result` for a tool_use it saw, a summary id it started).
 */
import fc from 'fast-check';
import type { FeatureSwitches, LoopConfig } from '../../src/config/config.ts';
import type { AssistantMessage, Message } from '../../src/messages/types.ts';
import type { LoopEvent, MessageEdit } from '../../src/data/events.ts';
import type { LoopParams } from '../../src/data/state.ts';
import { apiError, assistantText, assistantThinking, assistantToolUse, attachment, compactSummary, toolResultFor, usage, userText } from './builders.ts';
import { testConfig } from './params.ts';
import { reply, modelFails, overloaded, streamBreaks, type AbortPoint, type ModelReply, type Script } from './script.ts';

export const TOOL_USE_IDS = ['t1', 't2', 't3'] as const;
const toolUseIdArb = fc.constantFrom(...TOOL_USE_IDS);
const layerArb = fc.constantFrom('tool_result_budget', 'snip', 'microcompact', 'context_collapse' as const);

export const usageArb = fc.tuple(fc.nat(250_000), fc.nat(40_000)).map(([input, output]) => usage(input, output));

export const assistantMessageArb: fc.Arbitrary<AssistantMessage> = fc.oneof(
  { arbitrary: fc.string({ maxLength: 12 }).map((text) => assistantText(text)), weight: 3 },
  { arbitrary: fc.tuple(toolUseIdArb, fc.constantFrom('Read', 'Bash', 'Grep')).map(([id, name]) => assistantToolUse(id, name, { n: 1 })), weight: 3 },
  { arbitrary: fc.string({ maxLength: 8 }).map((t) => assistantThinking(t)), weight: 1 },
  {
    arbitrary: fc.constantFrom('prompt_too_long', 'max_output_tokens', 'media_size', 'invalid_request', 'other' as const).map((k) => apiError(k)),
    weight: 2,
  },
);

const messageArb: fc.Arbitrary<Message> = fc.oneof(
  fc.string({ maxLength: 8 }).map((t) => userText(t)),
  assistantMessageArb,
  fc.constant(attachment({ type: 'queued_command', prompt: 'next' })),
);

const editArb: fc.Arbitrary<MessageEdit> = fc.oneof(
  toolUseIdArb.map((toolUseId) => ({ op: 'replace_tool_result' as const, toolUseId, content: '[cleared]' })),
  fc.constantFrom('u:hi', 'a:t1', 'r:t1').map((uuid) => ({ op: 'remove' as const, uuids: [uuid] })),
);

const compactOutcomeFields = fc.oneof(
  fc.record({ ok: fc.constant(true), postCompactMessages: fc.constant(compactSummary()), preCompactTokens: fc.nat(200_000) }),
  fc.record({ ok: fc.constant(false), error: fc.constant('failed') }),
);

/** Any event of the catalogue, with no regard for the state it arrives in. */
export const loopEventArb: fc.Arbitrary<LoopEvent> = fc.oneof(
  { arbitrary: assistantMessageArb.map((message) => ({ type: 'model_message' as const, message })), weight: 4 },
  { arbitrary: fc.option(usageArb, { nil: undefined }).map((u) => (u ? { type: 'model_done' as const, usage: u } : { type: 'model_done' as const })), weight: 2 },
  fc.constant<LoopEvent>({ type: 'model_overloaded', message: 'Overloaded' }),
  fc.constant<LoopEvent>({ type: 'model_stream_fallback' }),
  fc.constantFrom('image', 'other' as const).map((kind): LoopEvent => ({ type: 'model_error', error: { kind, message: 'boom' } })),
  fc.constantFrom('interrupt', 'user_cancel').map((reason): LoopEvent => ({ type: 'abort', reason })),
  {
    arbitrary: fc.tuple(layerArb, fc.array(editArb, { maxLength: 2 }), fc.nat(30_000)).map(
      ([layer, edits, tokensFreed]): LoopEvent => ({ type: 'context_layer_result', layer, edits, tokensFreed }),
    ),
    weight: 3,
  },
  compactOutcomeFields.map((o): LoopEvent => ({ type: 'autocompact_result', ...o })),
  compactOutcomeFields.map((o): LoopEvent => ({ type: 'reactive_compact_result', ...o })),
  fc.tuple(fc.nat(3), fc.array(editArb, { maxLength: 1 })).map(([committed, edits]): LoopEvent => ({ type: 'collapse_drain_result', committed, edits })),
  { arbitrary: fc.tuple(toolUseIdArb, fc.boolean()).map(([id, prevent]) => toolResultFor(id, `out ${id}`, { preventContinuation: prevent })), weight: 2 },
  { arbitrary: fc.constant<LoopEvent>({ type: 'tools_finished' }), weight: 2 },
  {
    arbitrary: fc.record(
      {
        type: fc.constant('stop_hooks_result' as const),
        blockingErrors: fc.array(fc.constant('fix it'), { maxLength: 2 }),
        preventContinuation: fc.boolean(),
        hookCount: fc.nat(2),
      },
      { requiredKeys: ['type', 'blockingErrors', 'preventContinuation'] },
    ),
    weight: 2,
  },
  fc.array(messageArb, { maxLength: 2 }).map((attachments): LoopEvent => ({ type: 'attachments_collected', attachments })),
  fc.constantFrom('test:s1', 'test:s9').map((summaryId): LoopEvent => ({ type: 'tool_use_summary_ready', summaryId, summary: 'ran tools' })),
);

/** Every feature switch on or off. */
export const featuresArb: fc.Arbitrary<FeatureSwitches> = fc.record({
  stripThinkingOnFallback: fc.boolean(),
  autoCompact: fc.boolean(),
  reactiveCompact: fc.boolean(),
  contextCollapse: fc.boolean(),
  historySnip: fc.boolean(),
  microcompact: fc.boolean(),
  toolResultBudget: fc.boolean(),
  tokenBudget: fc.boolean(),
  maxOutputTokensCap: fc.boolean(),
  streamingToolExecution: fc.boolean(),
  toolUseSummaries: fc.boolean(),
});

const smallWindow = { 'claude-sonnet-4-6': { contextWindow: 30_000, maxOutputTokens: 8_000, maxOutputTokensUpperLimit: 8_000 } };

/** Random feature switches and small caps (so runs stay short); sometimes a small window to reach compaction. */
export const configArb: fc.Arbitrary<LoopConfig> = fc
  .record({
    features: featuresArb,
    limits: fc.record({ maxModelCalls: fc.integer({ min: 1, max: 8 }), maxStopHookBlocking: fc.integer({ min: 0, max: 3 }) }),
    smallWindow: fc.boolean(),
  })
  .map(({ features, limits, smallWindow: isSmall }) => testConfig({ features, limits, ...(isSmall ? { models: smallWindow } : {}) }));

export const paramsArb: fc.Arbitrary<LoopParams> = fc.record(
  {
    messages: fc.constantFrom([userText('hi')], [userText('x'.repeat(60_000))], [userText('hi'), assistantThinking('hm'), assistantText('yo'), userText('again')]),
    querySource: fc.constantFrom('sdk', 'repl_main_thread', 'compact', 'agent:a1'),
    fallbackModel: fc.constant('claude-opus-4-1'),
    maxTurns: fc.integer({ min: 1, max: 3 }),
    tokenBudget: fc.constantFrom(5_000, 50_000),
    taskBudget: fc.constant({ total: 100_000 }),
  },
  { requiredKeys: ['messages'] },
);

const replyArb: fc.Arbitrary<ModelReply> = fc.oneof(
  { arbitrary: fc.tuple(fc.array(assistantMessageArb, { minLength: 1, maxLength: 3 }), fc.option(usageArb, { nil: undefined })).map(([m, u]) => reply(m, { usage: u, concurrencySafe: { t1: true, t2: true } })), weight: 6 },
  fc.array(assistantMessageArb, { maxLength: 2 }).map((partial) => modelFails('boom', 'other', partial)),
  fc.constant(modelFails('bad image', 'image')),
  fc.array(assistantMessageArb, { maxLength: 2 }).map((partial) => overloaded(partial)),
  fc.array(assistantMessageArb, { maxLength: 2 }).map((partial) => streamBreaks(partial)),
);

const abortArb: fc.Arbitrary<AbortPoint | undefined> = fc.option(
  fc.record({
    on: fc.constantFrom('call_model', 'run_tools', 'finish_tools', 'run_stop_hooks', 'collect_attachments', 'context_layer' as const),
    nth: fc.integer({ min: 1, max: 2 }),
    reason: fc.constantFrom('interrupt', 'user_cancel'),
    after: fc.nat(2),
  }),
  { nil: undefined },
);

/** The data of a random script (printable in a counterexample); `scriptFromSpec` turns it into a `Script`. */
export interface ScriptSpec {
  replies: ModelReply[];
  stopHooks: Array<{ blockingErrors: string[]; preventContinuation: boolean }>;
  compactions: Array<{ ok: boolean; postCompactMessages?: Message[]; preCompactTokens?: number; error?: string }>;
  drains: Array<{ committed: number }>;
  abort?: AbortPoint;
}

export const scriptSpecArb: fc.Arbitrary<ScriptSpec> = fc.record(
  {
    replies: fc.array(replyArb, { minLength: 1, maxLength: 6 }),
    stopHooks: fc.array(fc.record({ blockingErrors: fc.array(fc.constant('again'), { maxLength: 1 }), preventContinuation: fc.boolean() }), { maxLength: 3 }),
    compactions: fc.array(compactOutcomeFields, { maxLength: 3 }),
    drains: fc.array(fc.record({ committed: fc.nat(2) }), { maxLength: 2 }),
    abort: abortArb,
  },
  { requiredKeys: ['replies', 'stopHooks', 'compactions', 'drains'] },
);

/** A script that never runs out: past the generated lists, a final text reply and failing compactions. */
export function scriptFromSpec(spec: ScriptSpec): Script {
  const { replies, stopHooks, compactions, drains, abort } = spec;
  return {
    model: (_e, n) => replies[n - 1] ?? reply(assistantText('final')),
    stopHooks,
    autocompact: (_e, n) => compactions[n - 1] ?? { ok: false, error: 'no more' },
    reactiveCompact: (_e, n) => compactions[n - 1] ?? { ok: false, error: 'no more' },
    collapseDrain: (_e, n) => drains[n - 1] ?? { committed: 0 },
    ...(abort ? { abort } : {}),
  };
}
