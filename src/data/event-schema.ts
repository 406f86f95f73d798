/**
 * The zod schemas of the event catalogue (`events.ts`) and `parseEvent`, the boundary check of replay and the CLI.
 * Kept out of `events.ts` so that the reducer, and with it the package root, loads without zod (~150 ms of the
 * root import); they are public through `turnloop/replay`. Replay's hot path asks `isLoopEvent` (`event-check.ts`)
 * instead, which must give `loopEventSchema`'s verdict: change both (`test/property/event-check.test.ts`).
 */
import { z } from 'zod';
import { API_ERROR_KINDS } from '../messages/types.ts';
import type { LoopEvent } from './events.ts';
import { CONTEXT_LAYERS } from './effects.ts';
import { TurnloopError } from '../errors/turnloop-error.ts';

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

const layerSchema = z.enum(CONTEXT_LAYERS);

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
export class InvalidEventError extends TurnloopError {
  constructor(
    readonly issues: Array<{ path: string; message: string }>,
    readonly where?: string,
  ) {
    super(
      'INVALID_EVENT',
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
