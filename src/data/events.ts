/**
 * The event catalogue: everything the outside world tells the reducer. Events are JSON data; their zod schemas
 * (`event-schema.ts`) validate them at the boundary (replay and the CLI), never inside `step()`. They live apart so
 * that importing the reducer (and the package root) does not load zod.
 */
import type { AssistantMessage, Message, UserMessage, Usage } from '../messages/types.ts';
import type { ContextLayer } from './effects.ts';

/** An edit a context layer makes to the working history; edits are small so that logs stay linear. */
export type MessageEdit =
  /** Replace the content of one tool result (tool-result budget, microcompact). */
  | { op: 'replace_tool_result'; toolUseId: string; content: string }
  /** Drop messages (snip). */
  | { op: 'remove'; uuids: string[] }
  /** Replace the run of messages from `fromUuid` to `toUuid` (inclusive) with others (context collapse). */
  | { op: 'replace_range'; fromUuid: string; toUuid: string; replacement: Message[] };

export type AbortReason = 'interrupt' | (string & {});

export type LoopEvent =
  /** One finished content block of the model's reply, or an API-error message. */
  | { type: 'model_message'; message: AssistantMessage; concurrencySafe?: Record<string, boolean> }
  /** The model's reply is complete. */
  | { type: 'model_done'; usage?: Usage; stopReason?: string | null }
  /** The model stayed overloaded after its retries. */
  | { type: 'model_overloaded'; message: string }
  /** The stream broke and the transport retries without streaming: forget this attempt. */
  | { type: 'model_stream_fallback' }
  /** The model call failed for good. */
  | { type: 'model_error'; error: { kind: 'image' | 'other'; message: string; status?: number; type?: string } }
  | { type: 'abort'; reason: AbortReason }
  | { type: 'context_layer_result'; layer: ContextLayer; edits: MessageEdit[]; tokensFreed: number; emitted?: Message[] }
  | {
      type: 'autocompact_result';
      ok: boolean;
      postCompactMessages?: Message[];
      preCompactTokens?: number;
      postCompactTokens?: number;
      error?: string;
    }
  | { type: 'reactive_compact_result'; ok: boolean; postCompactMessages?: Message[]; preCompactTokens?: number; error?: string }
  | { type: 'collapse_drain_result'; committed: number; edits: MessageEdit[] }
  /** One tool finished (or was cancelled); `message` carries its single tool_result. */
  | {
      type: 'tool_result';
      toolUseId: string;
      message: UserMessage;
      /** Messages to show before the result (progress, hook attachments). */
      extra?: Message[];
      preventContinuation?: boolean;
      contextPatch?: Record<string, unknown>;
    }
  | { type: 'tools_finished' }
  /**
   * The stop hooks' combined answer. `hookCount`: how many hooks answered (fewer than configured when the run was
   * aborted while they ran; absent = not reported, counted as "some answered").
   */
  | { type: 'stop_hooks_result'; blockingErrors: string[]; preventContinuation: boolean; stopReason?: string; hookCount?: number }
  | { type: 'attachments_collected'; attachments: Message[] }
  | { type: 'tool_use_summary_ready'; summaryId: string; summary: string };

export type LoopEventType = LoopEvent['type'];
export type EventOf<T extends LoopEventType> = Extract<LoopEvent, { type: T }>;
