/**
 * The event catalogue: everything the outside world tells the reducer. Events are JSON data; the zod schemas
 * below validate them at the boundary (`parseEvent`, used by the interpreter, replay and the CLI), never inside
 * `step()`, so a step costs nothing in proportion to the history.
 */
import { z } from 'zod';
import { API_ERROR_KINDS, type AssistantMessage, type Message, type UserMessage, type Usage } from '../messages/types.ts';
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

// ---------------------------------------------------------------------------------------------------------------
// Boundary schemas. Messages are checked for their discriminating fields; content blocks stay open so that newer
// API block types pass through.

const usageSchema = z.object({
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  cache_creation_input_tokens: z.number().nonnegative().nullish(),
  cache_read_input_tokens: z.number().nonnegative().nullish(),
});

const blockSchema = z.looseObject({ type: z.string() });

const userMessageSchema = z.looseObject({
  type: z.literal('user'),
  uuid: z.string(),
  message: z.looseObject({ role: z.literal('user'), content: z.union([z.string(), z.array(blockSchema)]) }),
  isMeta: z.boolean().optional(),
  sourceToolUseId: z.string().optional(),
});

const assistantMessageSchema = z.looseObject({
  type: z.literal('assistant'),
  uuid: z.string(),
  message: z.looseObject({
    id: z.string(),
    role: z.literal('assistant'),
    model: z.string(),
    content: z.array(blockSchema),
    stop_reason: z.string().nullable(),
    usage: usageSchema.optional(),
  }),
  apiError: z
    .object({ kind: z.enum(API_ERROR_KINDS), text: z.string(), status: z.number().optional(), errorType: z.string().optional() })
    .optional(),
  timestamp: z.number().optional(),
});

export const messageSchema = z.union([
  userMessageSchema,
  assistantMessageSchema,
  z.looseObject({ type: z.literal('system'), uuid: z.string(), subtype: z.string(), content: z.string() }),
  z.looseObject({ type: z.literal('attachment'), uuid: z.string(), attachment: z.looseObject({ type: z.string() }) }),
  z.looseObject({ type: z.literal('tombstone'), uuid: z.string(), targetUuid: z.string() }),
  z.looseObject({
    type: z.literal('tool_use_summary'),
    uuid: z.string(),
    summary: z.string(),
    precedingToolUseIds: z.array(z.string()),
  }),
]);

const editSchema = z.discriminatedUnion('op', [
  z.object({ op: z.literal('replace_tool_result'), toolUseId: z.string(), content: z.string() }),
  z.object({ op: z.literal('remove'), uuids: z.array(z.string()) }),
  z.object({ op: z.literal('replace_range'), fromUuid: z.string(), toUuid: z.string(), replacement: z.array(messageSchema) }),
]);

const layerSchema = z.enum(['tool_result_budget', 'snip', 'microcompact', 'context_collapse']);

export const loopEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('model_message'),
    message: assistantMessageSchema,
    concurrencySafe: z.record(z.string(), z.boolean()).optional(),
  }),
  z.object({ type: z.literal('model_done'), usage: usageSchema.optional(), stopReason: z.string().nullish() }),
  z.object({ type: z.literal('model_overloaded'), message: z.string() }),
  z.object({ type: z.literal('model_stream_fallback') }),
  z.object({
    type: z.literal('model_error'),
    error: z.object({
      kind: z.enum(['image', 'other']),
      message: z.string(),
      status: z.number().optional(),
      type: z.string().optional(),
    }),
  }),
  z.object({ type: z.literal('abort'), reason: z.string() }),
  z.object({
    type: z.literal('context_layer_result'),
    layer: layerSchema,
    edits: z.array(editSchema),
    tokensFreed: z.number().nonnegative(),
    emitted: z.array(messageSchema).optional(),
  }),
  z.object({
    type: z.literal('autocompact_result'),
    ok: z.boolean(),
    postCompactMessages: z.array(messageSchema).optional(),
    preCompactTokens: z.number().nonnegative().optional(),
    postCompactTokens: z.number().nonnegative().optional(),
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal('reactive_compact_result'),
    ok: z.boolean(),
    postCompactMessages: z.array(messageSchema).optional(),
    preCompactTokens: z.number().nonnegative().optional(),
    error: z.string().optional(),
  }),
  z.object({ type: z.literal('collapse_drain_result'), committed: z.number().int().nonnegative(), edits: z.array(editSchema) }),
  z.object({
    type: z.literal('tool_result'),
    toolUseId: z.string(),
    message: userMessageSchema,
    extra: z.array(messageSchema).optional(),
    preventContinuation: z.boolean().optional(),
    contextPatch: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ type: z.literal('tools_finished') }),
  z.object({
    type: z.literal('stop_hooks_result'),
    blockingErrors: z.array(z.string()),
    preventContinuation: z.boolean(),
    stopReason: z.string().optional(),
    hookCount: z.number().int().nonnegative().optional(),
  }),
  z.object({ type: z.literal('attachments_collected'), attachments: z.array(messageSchema) }),
  z.object({ type: z.literal('tool_use_summary_ready'), summaryId: z.string(), summary: z.string() }),
]);

/** Thrown by `parseEvent` for an event that does not match the catalogue. */
export class InvalidEventError extends Error {
  readonly code = 'INVALID_EVENT';
  constructor(
    readonly issues: Array<{ path: string; message: string }>,
    readonly where?: string,
  ) {
    super(
      `invalid event${where ? ` at ${where}` : ''}: ` + issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; '),
    );
    this.name = 'InvalidEventError';
  }
}

/** Validates unknown data as a loop event (the boundary check). */
export function parseEvent(data: unknown, where?: string): LoopEvent {
  const result = loopEventSchema.safeParse(data);
  if (!result.success) {
    throw new InvalidEventError(
      result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
      where,
    );
  }
  return result.data as LoopEvent;
}
