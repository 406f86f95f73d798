/**
 * The explorer's alphabet: what the environment can answer to each thing the loop waits for, as abstract kinds
 * (a text reply, a tool call, `max_tokens`, a tool that fails, a stop hook that blocks, an abort...), each turned
 * into the concrete events `step()` takes. Every kind maps onto something a scenario file can script
 * (`path-scenario.ts`), so a path of kinds is a reproducible run.
 *
 * Invariants: deterministic (ids derive from the model-call count); one tool_use per tool reply (more tools in
 * one reply take the same guards); usage is small except in the `tool_large` reply, whose input fills the
 * context up to the blocking limit (it drives autocompact and the blocking check).
 */
import type { LoopConfig } from '../config/config.ts';
import type { AssistantContentBlock, AssistantMessage, Message, ToolUseBlock, UserMessage } from '../messages/types.ts';
import type { ContextLayer } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import { apiErrorMessage } from '../messages/message-factory.ts';
import type { LoopState } from '../data/state.ts';
import { contextThresholds } from '../rules/thresholds.ts';

/** What the loop waits for (at most one thing at a time). */
export type Waiting =
  | { kind: 'model' }
  | { kind: 'layer'; layer: ContextLayer }
  | { kind: 'autocompact' }
  | { kind: 'reactive' }
  | { kind: 'drain' }
  | { kind: 'tools'; toolUses: ToolUseBlock[] }
  | { kind: 'stop_hooks' }
  | { kind: 'attachments' };

export const MODEL_ANSWERS = [
  'text',
  'tool',
  'tool_large',
  'max_tokens',
  'prompt_too_long',
  'media_error',
  'overloaded',
  'refusal',
  'api_error',
  'thrown_error',
  'image_error',
  'abort',
] as const;
export const TOOL_ANSWERS = ['ok', 'error', 'prevent', 'abort'] as const;
export const HOOK_ANSWERS = ['allow', 'block', 'prevent', 'abort'] as const;
export const COMPACTION_ANSWERS = ['ok', 'fail'] as const;

export type ModelAnswer = (typeof MODEL_ANSWERS)[number];
export type AnswerLabel = `model:${ModelAnswer}` | `tools:${(typeof TOOL_ANSWERS)[number]}` | `hooks:${(typeof HOOK_ANSWERS)[number]}` | `autocompact:${'ok' | 'fail'}` | `reactive:${'ok' | 'fail'}` | `drain:${'committed' | 'none'}` | 'layer' | `attachments:${'none' | 'abort'}`;

/** Output tokens of every reply: at least the diminishing-returns delta, so token-budget continuations happen. */
export const REPLY_OUTPUT_TOKENS = 1_000;
const REPLY_INPUT_TOKENS = 1_000;

/** The answer kinds for `waiting` (overload only with a fallback model: without one it is an API error). */
export function answerLabels(waiting: Waiting, state: LoopState): AnswerLabel[] {
  switch (waiting.kind) {
    case 'model':
      return MODEL_ANSWERS.filter((a) => a !== 'overloaded' || state.context.params.fallbackModel !== undefined).map((a) => `model:${a}` as const);
    case 'tools':
      return TOOL_ANSWERS.map((a) => `tools:${a}` as const);
    case 'stop_hooks':
      return HOOK_ANSWERS.map((a) => `hooks:${a}` as const);
    case 'autocompact':
      return ['autocompact:ok', 'autocompact:fail'];
    case 'reactive':
      return ['reactive:ok', 'reactive:fail'];
    case 'drain':
      return ['drain:committed', 'drain:none'];
    case 'layer':
      return ['layer'];
    case 'attachments':
      return ['attachments:none', 'attachments:abort'];
  }
}

function assistant(uuid: string, model: string, block: AssistantContentBlock): AssistantMessage {
  return { type: 'assistant', uuid, message: { id: `msg_${uuid}`, role: 'assistant', model, content: [block], stop_reason: null } };
}

function toolResult(toolUse: ToolUseBlock, content: string, isError: boolean): UserMessage {
  return {
    type: 'user',
    uuid: `result_${toolUse.id}`,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content, ...(isError ? { is_error: true } : {}) }] },
    sourceToolUseId: toolUse.id,
  };
}

const summaryMessages = (id: string): Message[] => [
  { type: 'system', uuid: `${id}:boundary`, subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info' },
  { type: 'user', uuid: `${id}:summary`, message: { role: 'user', content: 'Summary of the conversation so far.' }, isMeta: true },
];

const ABORT: LoopEvent = { type: 'abort', reason: 'user' };

function modelEvents(answer: ModelAnswer, state: LoopState, config: LoopConfig): LoopEvent[] {
  const c = state.context;
  const id = `x${c.modelCalls}`;
  const model = c.currentModel;
  const small = { input_tokens: REPLY_INPUT_TOKENS, output_tokens: REPLY_OUTPUT_TOKENS };
  const done = (usage = small): LoopEvent => ({ type: 'model_done', usage, stopReason: 'end_turn' });
  const error = (kind: Parameters<typeof apiErrorMessage>[2], text: string, tags = {}): LoopEvent[] => [
    { type: 'model_message', message: apiErrorMessage(`${id}:err`, model, kind, text, tags) },
    { type: 'model_done', stopReason: null },
  ];
  const toolUse: ToolUseBlock = { type: 'tool_use', id: `toolu_${id}`, name: 'Probe', input: {} };
  switch (answer) {
    case 'text':
      return [{ type: 'model_message', message: assistant(`${id}:0`, model, { type: 'text', text: 'Done.' }) }, done()];
    case 'tool':
    case 'tool_large': {
      const input = answer === 'tool' ? REPLY_INPUT_TOKENS : contextThresholds(model, config).blocking;
      return [
        { type: 'model_message', message: assistant(`${id}:0`, model, toolUse), concurrencySafe: { [toolUse.id]: false } },
        done({ input_tokens: input, output_tokens: REPLY_OUTPUT_TOKENS }),
      ];
    }
    case 'max_tokens':
      return [
        { type: 'model_message', message: assistant(`${id}:0`, model, { type: 'text', text: 'Partial answer' }) },
        { type: 'model_message', message: apiErrorMessage(`${id}:err`, model, 'max_output_tokens', 'The response was cut off at the output limit.') },
        done(),
      ];
    case 'prompt_too_long':
      return error('prompt_too_long', 'prompt is too long: 210000 tokens > 200000 maximum', { status: 400 });
    case 'media_error':
      return error('media_size', 'image exceeds 5 MB maximum', { status: 400 });
    case 'refusal':
      return error('other', 'The model declined to answer.', { errorType: 'refusal' });
    case 'api_error':
      return error('other', 'API error 500 api_error: Internal server error', { status: 500, errorType: 'api_error' });
    case 'overloaded':
      return [{ type: 'model_overloaded', message: 'Overloaded' }];
    case 'thrown_error':
      return [{ type: 'model_error', error: { kind: 'other', message: 'the model caller crashed' } }];
    case 'image_error':
      return [{ type: 'model_error', error: { kind: 'image', message: 'image could not be resized' } }];
    case 'abort':
      return [ABORT];
  }
}

/** The concrete events of one answer, fed to `step()` in order. */
export function answerEvents(label: AnswerLabel, waiting: Waiting, state: LoopState, config: LoopConfig): LoopEvent[] {
  const [what, how] = label.split(':') as [string, string | undefined];
  switch (what) {
    case 'model':
      return modelEvents(how as ModelAnswer, state, config);
    case 'tools': {
      const toolUses = waiting.kind === 'tools' ? waiting.toolUses : [];
      const results = toolUses.map((t): LoopEvent => {
        if (how === 'abort') return { type: 'tool_result', toolUseId: t.id, message: toolResult(t, 'Cancelled: the run was aborted.', true) };
        if (how === 'prevent') return { type: 'tool_result', toolUseId: t.id, message: toolResult(t, 'ok', false), preventContinuation: true };
        return { type: 'tool_result', toolUseId: t.id, message: toolResult(t, how === 'ok' ? 'ok' : 'failed', how === 'error') };
      });
      return [...(how === 'abort' ? [ABORT] : []), ...results, { type: 'tools_finished' }];
    }
    case 'hooks':
      if (how === 'abort') return [ABORT, { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: false, hookCount: 0 }];
      return [
        {
          type: 'stop_hooks_result',
          blockingErrors: how === 'block' ? ['Run the tests first.'] : [],
          preventContinuation: how === 'prevent',
          ...(how === 'prevent' ? { stopReason: 'a hook said stop' } : {}),
          hookCount: 1,
        },
      ];
    case 'autocompact':
      return how === 'ok'
        ? [{ type: 'autocompact_result', ok: true, postCompactMessages: summaryMessages(`ac${state.context.seq}`) }]
        : [{ type: 'autocompact_result', ok: false, error: 'compaction failed' }];
    case 'reactive':
      return how === 'ok'
        ? [{ type: 'reactive_compact_result', ok: true, postCompactMessages: summaryMessages(`rc${state.context.seq}`) }]
        : [{ type: 'reactive_compact_result', ok: false, error: 'still too long' }];
    case 'drain':
      return [{ type: 'collapse_drain_result', committed: how === 'committed' ? 1 : 0, edits: [] }];
    case 'layer':
      return waiting.kind === 'layer' ? [{ type: 'context_layer_result', layer: waiting.layer, edits: [], tokensFreed: 0 }] : [];
    case 'attachments':
      return how === 'abort' ? [ABORT] : [{ type: 'attachments_collected', attachments: [] }];
    default:
      return [];
  }
}
