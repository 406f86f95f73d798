/**
 * The message vocabulary of the loop (docs/loop.md §1). Every type here is plain JSON: messages travel in effects and
 * events, are written to session logs and survive `JSON.parse(JSON.stringify(m))` unchanged.
 *
 * Content blocks mirror the Anthropic Messages API so that a history can be sent to the API after a cheap
 * normalisation (see `src/model/to-api-messages.ts`).
 */

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

export interface ImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };
}

export interface DocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: string; data: string } | { type: 'text'; media_type: string; data: string };
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<TextBlock | ImageBlock | DocumentBlock>;
  is_error?: boolean;
}

export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock;
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock;

/** Token usage as the API reports it. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** Why an assistant message is an API error (docs/loop.md §1). */
export const API_ERROR_KINDS = ['prompt_too_long', 'max_output_tokens', 'media_size', 'invalid_request', 'other'] as const;
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number];

/** What an API-error message says about the failure: its kind, the text shown, and the API's own tags if any. */
export interface ApiErrorInfo {
  kind: ApiErrorKind;
  text: string;
  /** HTTP status of the failed request (absent for stop reasons and connection errors). */
  status?: number;
  /** The API's error type (`authentication_error`, `overloaded_error`...), or `refusal` for that stop reason. */
  errorType?: string;
}

export interface UserMessage {
  type: 'user';
  uuid: string;
  message: { role: 'user'; content: string | UserContentBlock[] };
  /** Written by the engine for the model (recovery prompt, nudge, hook feedback); UIs may hide it. */
  isMeta?: boolean;
  /** Set on tool results: the tool_use this message answers. */
  sourceToolUseId?: string;
}

export interface AssistantMessage {
  type: 'assistant';
  uuid: string;
  message: {
    id: string;
    role: 'assistant';
    model: string;
    content: AssistantContentBlock[];
    stop_reason: string | null;
    usage?: Usage;
  };
  /** Present when this message stands for an API error rather than model output. */
  apiError?: ApiErrorInfo;
  /** When the interpreter received it (ms since epoch, from its clock); used by time-based microcompact. */
  timestamp?: number;
}

export type SystemSubtype =
  | 'warning'
  | 'info'
  | 'compact_boundary'
  | 'snip_boundary'
  | 'cap_reached'
  | 'stop_hook_summary';

export interface SystemMessage {
  type: 'system';
  uuid: string;
  subtype: SystemSubtype;
  content: string;
  level?: 'info' | 'warning' | 'error';
  /** Structured details (e.g. the token counts of a compaction). */
  data?: Record<string, unknown>;
}

export type Attachment =
  | { type: 'max_turns_reached'; maxTurns: number; turnCount: number }
  | { type: 'hook_stopped_continuation'; message: string; toolUseId?: string; hookName?: string; hookEvent?: string }
  | { type: 'queued_command'; prompt: string }
  | { type: 'hook_blocking_error'; message: string; toolUseId?: string }
  | { type: 'context'; name: string; content: string }
  /** A tool hook's `additionalContext` (Claude Code's `hook_additional_context`): `hookName` is `<event>:<tool>`. */
  | { type: 'hook_additional_context'; hookName: string; content: string };

export interface AttachmentMessage {
  type: 'attachment';
  uuid: string;
  attachment: Attachment;
}

/** Tells a UI to delete an assistant message it already showed (streaming fallback). */
export interface TombstoneMessage {
  type: 'tombstone';
  uuid: string;
  targetUuid: string;
}

export interface ToolUseSummaryMessage {
  type: 'tool_use_summary';
  uuid: string;
  summary: string;
  precedingToolUseIds: string[];
}

/** Anything the loop may put in its history or emit. */
export type Message =
  | UserMessage
  | AssistantMessage
  | SystemMessage
  | AttachmentMessage
  | TombstoneMessage
  | ToolUseSummaryMessage;

/** Pass-through items that `query()` yields but that never enter the history. */
export interface StreamEventItem {
  type: 'stream_event';
  event: unknown;
}
export interface RequestStartItem {
  type: 'request_start';
}

export type QueryItem = Message | StreamEventItem | RequestStartItem;
