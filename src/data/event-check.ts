/**
 * `isLoopEvent(data)`: the verdict of `loopEventSchema.safeParse(data).success` (`event-schema.ts`), written by hand.
 *
 * Why: replay validates every line of a log, and zod's generic walk (a payload and an issue list per field) was
 * ~1.5 µs of a ~270-byte event line, as much as the rest of the parse. This check builds no payload or issue
 * objects.
 *
 * Invariants:
 * - On JSON data (what `JSON.parse` returns) it answers exactly as the schema does; a fast-check property holds the
 *   two equal on random and mutated events (`test/property/event-check.test.ts`). The schema stays the reference:
 *   change both together.
 * - It only answers yes or no. Callers that need an error message ask the schema (same text as before).
 */
import { API_ERROR_KINDS } from '../messages/types.ts';
import type { LoopEvent } from './events.ts';
import { CONTEXT_LAYERS } from './effects.ts';

type Obj = Record<string, unknown>;

/** zod's object test: any non-null object but an array. */
function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** zod's `z.number()`: finite. */
function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isNonNegative(value: unknown): boolean {
  return isNumber(value) && value >= 0;
}

/** `z.number().int().nonnegative()`: zod's `int` is a safe integer. */
function isCount(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isOptional(value: unknown, check: (value: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

function isBoolean(value: unknown): value is boolean {
  return typeof value === 'boolean';
}

function isArrayOf(value: unknown, check: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
  return true;
}

/** `z.record(z.string(), z.boolean())`: every own key but `__proto__` (which zod skips) holds a boolean. */
function isBooleanRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  for (const key in value) {
    if (Object.hasOwn(value, key) && key !== '__proto__' && typeof value[key] !== 'boolean') return false;
  }
  return true;
}

/**
 * Written out, not composed of the helpers above, like `isAssistantMessage`: the shell checks every model event
 * with `isLoopEvent` (src/runtime/recordable-model-output.ts), mostly in V8's baseline tier, where each helper call
 * costs more than its test. The same reads in the same order as the helpers would make.
 */
function isUsage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const usage = value as Obj;
  const cacheCreation = usage.cache_creation_input_tokens;
  const cacheRead = usage.cache_read_input_tokens;
  const input = usage.input_tokens;
  if (typeof input !== 'number' || !Number.isFinite(input) || input < 0) return false;
  const output = usage.output_tokens;
  if (typeof output !== 'number' || !Number.isFinite(output) || output < 0) return false;
  return (cacheCreation == null || isNonNegative(cacheCreation)) && (cacheRead == null || isNonNegative(cacheRead));
}

function isBlock(value: unknown): boolean {
  return isObject(value) && isString(value.type);
}

function isUserMessage(value: unknown): boolean {
  if (!isObject(value) || value.type !== 'user' || !isString(value.uuid)) return false;
  const message = value.message;
  if (!isObject(message) || message.role !== 'user') return false;
  const content = message.content;
  return (isString(content) || isArrayOf(content, isBlock))
    && isOptional(value.isMeta, isBoolean) && isOptional(value.sourceToolUseId, isString);
}

function isApiError(value: unknown): boolean {
  return isObject(value) && (API_ERROR_KINDS as readonly unknown[]).includes(value.kind) && isString(value.text)
    && isOptional(value.status, isNumber) && isOptional(value.errorType, isString);
}

/** Written out (see `isUsage`): one a model reply, in the shell's check of every reply. The helpers' reads, in their order. */
function isAssistantMessage(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Obj;
  if (entry.type !== 'assistant' || typeof entry.uuid !== 'string') return false;
  const message = entry.message;
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const body = message as Obj;
  if (typeof body.id !== 'string' || body.role !== 'assistant' || typeof body.model !== 'string') return false;
  const content = body.content;
  if (!Array.isArray(content)) return false;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (typeof block !== 'object' || block === null || Array.isArray(block) || typeof (block as Obj).type !== 'string') return false;
  }
  if (body.stop_reason !== null && typeof body.stop_reason !== 'string') return false;
  const usage = body.usage;
  if (usage !== undefined && !isUsage(usage)) return false;
  const apiError = entry.apiError;
  if (apiError !== undefined && !isApiError(apiError)) return false;
  const timestamp = entry.timestamp;
  return timestamp === undefined || (typeof timestamp === 'number' && Number.isFinite(timestamp));
}

/** `messageSchema`: one of six message types, told apart by `type`. */
function isMessage(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.type) {
    case 'user':
      return isUserMessage(value);
    case 'assistant':
      return isAssistantMessage(value);
    case 'system':
      return isString(value.uuid) && isString(value.subtype) && isString(value.content);
    case 'attachment':
      return isString(value.uuid) && isObject(value.attachment) && isString(value.attachment.type);
    case 'tombstone':
      return isString(value.uuid) && isString(value.targetUuid);
    case 'tool_use_summary':
      return isString(value.uuid) && isString(value.summary) && isArrayOf(value.precedingToolUseIds, isString);
    default:
      return false;
  }
}

function isEdit(value: unknown): boolean {
  if (!isObject(value)) return false;
  switch (value.op) {
    case 'replace_tool_result':
      return isString(value.toolUseId) && isString(value.content);
    case 'remove':
      return isArrayOf(value.uuids, isString);
    case 'replace_range':
      return isString(value.fromUuid) && isString(value.toUuid) && isArrayOf(value.replacement, isMessage);
    default:
      return false;
  }
}

const MODEL_ERROR_KINDS: readonly unknown[] = ['image', 'other'];

function isMessages(value: unknown): boolean {
  return isArrayOf(value, isMessage);
}

/** True exactly when `loopEventSchema` accepts `data` (see the invariants above). */
export function isLoopEvent(data: unknown): data is LoopEvent {
  if (!isObject(data)) return false;
  const e = data;
  switch (e.type) {
    case 'model_message': {
      if (!isAssistantMessage(e.message)) return false;
      const flags = e.concurrencySafe;
      return flags === undefined || isBooleanRecord(flags);
    }
    case 'model_done': {
      const usage = e.usage;
      if (usage !== undefined && !isUsage(usage)) return false;
      return e.stopReason == null || typeof e.stopReason === 'string';
    }
    case 'model_overloaded':
      return isString(e.message);
    case 'model_stream_fallback':
    case 'tools_finished':
      return true;
    case 'model_error': {
      const error = e.error;
      return isObject(error) && MODEL_ERROR_KINDS.includes(error.kind) && isString(error.message)
        && isOptional(error.status, isNumber) && isOptional(error.type, isString);
    }
    case 'abort':
      return isString(e.reason);
    case 'context_layer_result':
      return (CONTEXT_LAYERS as readonly unknown[]).includes(e.layer) && isArrayOf(e.edits, isEdit) && isNonNegative(e.tokensFreed)
        && isOptional(e.emitted, isMessages);
    case 'autocompact_result':
      return isBoolean(e.ok) && isOptional(e.postCompactMessages, isMessages) && isOptional(e.preCompactTokens, isNonNegative)
        && isOptional(e.postCompactTokens, isNonNegative) && isOptional(e.error, isString);
    case 'reactive_compact_result':
      return isBoolean(e.ok) && isOptional(e.postCompactMessages, isMessages) && isOptional(e.preCompactTokens, isNonNegative)
        && isOptional(e.error, isString);
    case 'collapse_drain_result':
      return isCount(e.committed) && isArrayOf(e.edits, isEdit);
    case 'tool_result':
      return isString(e.toolUseId) && isUserMessage(e.message) && isOptional(e.extra, isMessages)
        && isOptional(e.preventContinuation, isBoolean) && isOptional(e.contextPatch, isObject);
    case 'stop_hooks_result':
      return isArrayOf(e.blockingErrors, isString) && isBoolean(e.preventContinuation) && isOptional(e.stopReason, isString)
        && isOptional(e.hookCount, isCount);
    case 'attachments_collected':
      return isMessages(e.attachments);
    case 'tool_use_summary_ready':
      return isString(e.summaryId) && isString(e.summary);
    default:
      return false;
  }
}
