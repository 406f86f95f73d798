/**
 * Builders for the messages and events the outside world sends to `step()`. Pure: ids derive from the content
 * (`a:<text>`, `a:<toolUseId>`, `r:<toolUseId>`) unless given, so the same call always builds the same message;
 * pass `{ uuid }` when a test needs two messages with the same text.
 */
import type { MessageEdit, LoopEvent, EventOf } from '../../src/data/events.ts';
import type {
  ApiErrorKind,
  AssistantContentBlock,
  AssistantMessage,
  Attachment,
  AttachmentMessage,
  Message,
  Usage,
  UserMessage,
} from '../../src/messages/types.ts';

export const TEST_MODEL = 'claude-sonnet-4-6';

export interface AssistantOptions {
  uuid?: string;
  /** The API message id shared by all blocks of one reply. */
  id?: string;
  model?: string;
  stopReason?: string | null;
  usage?: Usage;
}

/** One assistant message (one content block per message, docs/loop.md §1). */
export function assistantBlock(block: AssistantContentBlock, uuid: string, opts: AssistantOptions = {}): AssistantMessage {
  return {
    type: 'assistant',
    uuid: opts.uuid ?? uuid,
    message: {
      id: opts.id ?? `msg_${opts.uuid ?? uuid}`,
      role: 'assistant',
      model: opts.model ?? TEST_MODEL,
      content: [block],
      stop_reason: opts.stopReason ?? null,
      ...(opts.usage ? { usage: opts.usage } : {}),
    },
  };
}

export function assistantText(text: string, opts: AssistantOptions = {}): AssistantMessage {
  return assistantBlock({ type: 'text', text }, `a:${text.slice(0, 40)}`, opts);
}

export function assistantThinking(thinking: string, opts: AssistantOptions = {}): AssistantMessage {
  return assistantBlock({ type: 'thinking', thinking, signature: `sig:${thinking.slice(0, 20)}` }, `a:think:${thinking.slice(0, 30)}`, opts);
}

export function assistantToolUse(id: string, name: string, input: unknown = {}, opts: AssistantOptions = {}): AssistantMessage {
  return assistantBlock({ type: 'tool_use', id, name, input }, `a:${id}`, opts);
}

/** An API-error assistant message (docs/loop.md §1), as the model adapter reports it. */
export function apiError(kind: ApiErrorKind, text = `API error: ${kind}`, opts: AssistantOptions = {}): AssistantMessage {
  return { ...assistantBlock({ type: 'text', text }, `a:error:${kind}`, opts), apiError: { kind, text } };
}

export function usage(input_tokens: number, output_tokens = 0, cache: { read?: number; creation?: number } = {}): Usage {
  return {
    input_tokens,
    output_tokens,
    ...(cache.read !== undefined ? { cache_read_input_tokens: cache.read } : {}),
    ...(cache.creation !== undefined ? { cache_creation_input_tokens: cache.creation } : {}),
  };
}

export function userText(text: string, uuid = `u:${text.slice(0, 40)}`): UserMessage {
  return { type: 'user', uuid, message: { role: 'user', content: text } };
}

export function attachment(att: Attachment, uuid = `att:${att.type}`): AttachmentMessage {
  return { type: 'attachment', uuid, attachment: att };
}

/** The single user message that answers one tool_use. */
export function toolResultMessage(toolUseId: string, content: string, opts: { isError?: boolean; uuid?: string } = {}): UserMessage {
  return {
    type: 'user',
    uuid: opts.uuid ?? `r:${toolUseId}`,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content, ...(opts.isError ? { is_error: true } : {}) }],
    },
    sourceToolUseId: toolUseId,
  };
}

export interface ToolResultOptions {
  isError?: boolean;
  uuid?: string;
  extra?: Message[];
  preventContinuation?: boolean;
  contextPatch?: Record<string, unknown>;
}

// --- events -------------------------------------------------------------------------------------------------

export function modelMessage(message: AssistantMessage, concurrencySafe?: Record<string, boolean>): EventOf<'model_message'> {
  return concurrencySafe ? { type: 'model_message', message, concurrencySafe } : { type: 'model_message', message };
}

export function modelDone(u?: Usage, stopReason?: string | null): EventOf<'model_done'> {
  return { type: 'model_done', ...(u ? { usage: u } : {}), ...(stopReason !== undefined ? { stopReason } : {}) };
}

export function toolResultFor(toolUseId: string, content: string, opts: ToolResultOptions = {}): EventOf<'tool_result'> {
  return {
    type: 'tool_result',
    toolUseId,
    message: toolResultMessage(toolUseId, content, opts),
    ...(opts.extra ? { extra: opts.extra } : {}),
    ...(opts.preventContinuation ? { preventContinuation: true } : {}),
    ...(opts.contextPatch ? { contextPatch: opts.contextPatch } : {}),
  };
}

export const toolsFinished = (): LoopEvent => ({ type: 'tools_finished' });
export const abort = (reason = 'user_cancel'): EventOf<'abort'> => ({ type: 'abort', reason });
export const modelOverloaded = (message = 'Overloaded'): EventOf<'model_overloaded'> => ({ type: 'model_overloaded', message });
export const modelStreamFallback = (): EventOf<'model_stream_fallback'> => ({ type: 'model_stream_fallback' });

export function modelError(message = 'Internal server error', kind: 'image' | 'other' = 'other', status?: number): EventOf<'model_error'> {
  return { type: 'model_error', error: { kind, message, ...(status !== undefined ? { status } : {}) } };
}

export function stopHooksResult(blockingErrors: string[] = [], preventContinuation = false, stopReason?: string): EventOf<'stop_hooks_result'> {
  return { type: 'stop_hooks_result', blockingErrors, preventContinuation, ...(stopReason !== undefined ? { stopReason } : {}) };
}

export function layerResult(
  layer: EventOf<'context_layer_result'>['layer'],
  edits: MessageEdit[] = [],
  tokensFreed = 0,
): EventOf<'context_layer_result'> {
  return { type: 'context_layer_result', layer, edits, tokensFreed };
}

export function autocompactResult(outcome: CompactOutcome): EventOf<'autocompact_result'> {
  return { type: 'autocompact_result', ...outcome };
}

export function reactiveCompactResult(outcome: CompactOutcome): EventOf<'reactive_compact_result'> {
  const { postCompactTokens: _unused, ...rest } = outcome;
  return { type: 'reactive_compact_result', ...rest };
}

/** What a compactor reports: success with the post-compact messages, or a failure. */
export interface CompactOutcome {
  ok: boolean;
  postCompactMessages?: Message[];
  preCompactTokens?: number;
  postCompactTokens?: number;
  error?: string;
}

export function compacted(postCompactMessages: Message[], preCompactTokens?: number): CompactOutcome {
  return { ok: true, postCompactMessages, ...(preCompactTokens !== undefined ? { preCompactTokens } : {}) };
}

export const compactFailed = (error = 'compaction failed'): CompactOutcome => ({ ok: false, error });

/** A post-compact history: boundary + summary, as a compactor would return it. */
export function compactSummary(text = 'Summary of the conversation so far.'): Message[] {
  return [
    { type: 'system', uuid: 'boundary', subtype: 'compact_boundary', content: 'Conversation compacted' },
    { type: 'user', uuid: 'summary', message: { role: 'user', content: text }, isMeta: true },
  ];
}
