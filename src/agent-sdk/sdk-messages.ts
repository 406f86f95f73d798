/**
 * Our `query()` items as the Agent SDK's messages (`SDKMessage` in its `sdk.d.ts`): `assistant`, `user`,
 * `stream_event` and `system`/`compact_boundary`, each with `session_id`, `uuid` and `parent_tool_use_id` (the
 * Task call's id for a subagent's messages). Everything of ours the SDK does not know (attachments, tombstones,
 * request markers, our system notes) maps to nothing: it never reaches stdout. Pure.
 */
import type { AssistantMessage, QueryItem, UserMessage } from '../messages/types.ts';
import { INTERRUPTED_DURING_TOOLS_TEXT, INTERRUPTED_TEXT } from '../messages/message-factory.ts';
import type { JsonObject } from './json-lines.ts';
import { sdkErrorOfStatus } from './progress-messages.ts';

export interface MessageFrame {
  sessionId: string;
  /** The Task call a subagent's message belongs to; null on the main thread. */
  parentToolUseId: string | null;
  /** A fresh UUID for frames that have none of their own (stream events). */
  newUuid(): string;
}

const ZERO_USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/** The SDK's `SDKAssistantMessageError` for our API-error kinds and statuses. */
function assistantError(message: AssistantMessage): string | undefined {
  const error = message.apiError;
  if (!error) return undefined;
  if (error.kind === 'max_output_tokens') return 'max_output_tokens';
  if (error.kind === 'invalid_request' || error.kind === 'prompt_too_long' || error.kind === 'media_size') return 'invalid_request';
  return sdkErrorOfStatus(error.status, error.errorType);
}

function assistantFrame(item: AssistantMessage, frame: MessageFrame): JsonObject {
  const error = assistantError(item);
  return {
    type: 'assistant',
    message: { type: 'message', stop_sequence: null, ...item.message, usage: { ...ZERO_USAGE, ...item.message.usage } },
    parent_tool_use_id: frame.parentToolUseId,
    ...(error ? { error } : {}),
    uuid: item.uuid,
    session_id: frame.sessionId,
  };
}

/** Our interruption notes in the real executable's words (what SDK programs look for). */
const INTERRUPT_WORDS: Record<string, string> = {
  [INTERRUPTED_TEXT]: '[Request interrupted by user]',
  [INTERRUPTED_DURING_TOOLS_TEXT]: '[Request interrupted by user for tool use]',
};

function userFrame(item: UserMessage, frame: MessageFrame): JsonObject {
  const { content } = item.message;
  const interrupt = typeof content === 'string' ? INTERRUPT_WORDS[content] : undefined;
  return {
    type: 'user',
    message: { role: 'user', content: interrupt ? [{ type: 'text', text: interrupt }] : content },
    parent_tool_use_id: frame.parentToolUseId,
    ...(item.isMeta ? { isSynthetic: true } : {}),
    uuid: item.uuid,
    session_id: frame.sessionId,
  };
}

function modelFallback(data: Record<string, unknown> | undefined): { from: string; to: string } | undefined {
  return typeof data?.from === 'string' && typeof data.to === 'string' ? { from: data.from, to: data.to } : undefined;
}

/** The SDK message for `item`, or null when the SDK has no such message. */
export function toSdkMessage(item: QueryItem, frame: MessageFrame, options: { partialMessages: boolean }): JsonObject | null {
  switch (item.type) {
    case 'assistant':
      return assistantFrame(item, frame);
    case 'user':
      return userFrame(item, frame);
    case 'stream_event':
      if (!options.partialMessages) return null;
      return { type: 'stream_event', event: item.event, parent_tool_use_id: frame.parentToolUseId, uuid: frame.newUuid(), session_id: frame.sessionId };
    case 'system': {
      const fallback = modelFallback(item.data);
      // The switch to the fallback model, as the real executable reports it (`system/model_fallback`).
      if (item.subtype === 'warning' && fallback) {
        return { type: 'system', subtype: 'model_fallback', trigger: 'overloaded', original_model: fallback.from, fallback_model: fallback.to, content: item.content, uuid: item.uuid, session_id: frame.sessionId };
      }
      if (item.subtype !== 'compact_boundary') return null;
      const data = item.data ?? {};
      const preTokens = typeof data.preCompactTokens === 'number' ? data.preCompactTokens : 0;
      const trigger = data.trigger === 'manual' ? 'manual' : 'auto';
      return { type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger, pre_tokens: preTokens }, uuid: item.uuid, session_id: frame.sessionId };
    }
    default:
      return null;
  }
}
