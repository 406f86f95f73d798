/**
 * What the model sends must be something the session log can hold and give back: the log's parser refuses lines
 * nested deeper than 512 levels (as every reader of a log does, `src/cli/read-input.ts`), and JSON has no
 * `Infinity`, `NaN` or negative token counts (`JSON.stringify` writes a non-finite number as `null`, which the
 * parser then refuses). A proxy may send `"input_tokens": -5` or `1e400` (parsed as `Infinity`), a model a tool
 * input nested 600 levels deep. Such an event is refused HERE, as it arrives and before the reducer or the recorder
 * sees it, so a run never completes with a log that replay, resume and viz refuse (docs/security.md).
 *
 * Invariant: an event this module accepts is one `isLoopEvent` accepts, whose JSON text parses back to the same
 * value at a depth the log readers accept (`test/property/recordable-model-output.test.ts`).
 */
import { isLoopEvent } from '../data/event-check.ts';
import type { LoopEvent } from '../data/events.ts';

/**
 * The deepest a model event may nest (the event object is level 1). A log line wraps an event in one more level,
 * and later events carry the message again inside compaction results and edits (a few levels more): 256 leaves
 * the line far below the readers' 512.
 */
export const MAX_MODEL_EVENT_DEPTH = 256;

/** A place in the walked value: its key and its parent's place (paths are spelt out only for an error). */
interface Place {
  key: string | number;
  parent: Place | null;
}

function describePlace(place: Place | null, limit = Infinity): string {
  const keys: Array<string | number> = [];
  for (let at = place; at; at = at.parent) keys.unshift(at.key);
  const shown = keys.slice(0, limit);
  const text = shown.map((key, i) => (typeof key === 'number' ? `[${key}]` : i === 0 ? key : `.${key}`)).join('') || '(event)';
  return keys.length > shown.length ? `${text}…` : text;
}

/**
 * Why `value` cannot be written as JSON and read back as the same value, or null when it can: a non-finite number,
 * a value JSON does not have (a function, a bigint, `undefined` in a list), or nesting deeper than `maxDepth`.
 * Iterative, so a hostile depth cannot overflow the stack here; no copies.
 */
export function jsonRoundTripProblem(value: unknown, maxDepth: number): string | null {
  // The fallback: a getter or a proxy may answer the second walk differently; the value stays refused.
  return roundTrips(value, maxDepth) ? null : (describedProblem(value, maxDepth) ?? 'it cannot be written as JSON and read back');
}

/**
 * The same walk, with no places: every model event takes it, and a place per member was most of its cost. Only a
 * value it refuses is walked again to name where. Recursive, with no stack of its own (two arrays per event
 * before): it never goes deeper than `maxDepth` + 1 calls, as it refuses a value there, so a hostile depth cannot
 * overflow the stack.
 */
function roundTrips(value: unknown, maxDepth: number): boolean {
  return roundTripsAt(value, 1, maxDepth);
}

function roundTripsAt(at: unknown, depth: number, maxDepth: number): boolean {
  if (typeof at === 'string' || typeof at === 'boolean' || at === null) return true;
  if (typeof at === 'number') return Number.isFinite(at);
  if (typeof at !== 'object' || depth > maxDepth) return false;
  if (Array.isArray(at)) {
    for (let i = 0; i < at.length; i++) {
      const member: unknown = at[i];
      if (typeof member === 'string') continue;
      if (member === undefined || !roundTripsAt(member, depth + 1, maxDepth)) return false;
    }
    return true;
  }
  // The own enumerable keys, as `for…in` with an own check gives them, in the same order: one builtin call per
  // object instead of an enumeration step and an `Object.hasOwn` call per member (round 17: the whole check of a
  // turn's two model events 31.5k → 28.8k instructions in the baseline tier, with the string shortcut below).
  const keys = Object.keys(at);
  for (let i = 0; i < keys.length; i++) {
    const member = (at as Record<string, unknown>)[keys[i]];
    // A string member (most of a reply's) is decided here, without a call.
    if (typeof member === 'string' || member === undefined) continue;
    if (!roundTripsAt(member, depth + 1, maxDepth)) return false;
  }
  return true;
}

function describedProblem(value: unknown, maxDepth: number): string | null {
  const stack: Array<{ value: unknown; depth: number; place: Place | null }> = [{ value, depth: 1, place: null }];
  while (stack.length > 0) {
    const { value: at, depth, place } = stack.pop()!;
    if (typeof at === 'number') {
      if (!Number.isFinite(at)) return `${describePlace(place)} is ${at}, which JSON cannot hold`;
      continue;
    }
    if (at === null || typeof at === 'string' || typeof at === 'boolean') continue;
    if (typeof at !== 'object') return `${describePlace(place)} is a ${typeof at}, which JSON cannot hold`;
    if (depth > maxDepth) return `${describePlace(place, 8)} nests deeper than ${maxDepth} levels`;
    if (Array.isArray(at)) {
      for (let i = 0; i < at.length; i++) {
        if (at[i] === undefined) return `${describePlace({ key: i, parent: place })} is undefined, which JSON cannot hold`;
        stack.push({ value: at[i], depth: depth + 1, place: { key: i, parent: place } });
      }
      continue;
    }
    for (const key in at) {
      if (!Object.hasOwn(at, key)) continue;
      const member = (at as Record<string, unknown>)[key];
      if (member !== undefined) stack.push({ value: member, depth: depth + 1, place: { key, parent: place } });
    }
  }
  return null;
}

/**
 * The token counts of a usage that cannot be right: negative (a count cannot be), or above 2^53 − 1. A finite but
 * huge count (`1e308`) is not a count either, and the loop adds counts up (input + output + cache): two of them
 * make Infinity, which would reach a compaction's `preCompactTokens` and the log as `null`.
 */
function impossibleUsage(usage: unknown, where: string): string | null {
  if (usage === null || typeof usage !== 'object') return null;
  // `for…in` with an own check: the same keys in the same order as `Object.entries`, without its pairs (twice a turn).
  for (const key in usage) {
    if (!Object.hasOwn(usage, key)) continue;
    const count: unknown = (usage as Record<string, unknown>)[key];
    if (typeof count !== 'number' || !Number.isFinite(count)) continue; // the JSON check below names it
    if (count < 0) return `${where}.${key} is ${count}; a token count is at least 0`;
    if (count > Number.MAX_SAFE_INTEGER) return `${where}.${key} is ${count}; a token count is at most ${Number.MAX_SAFE_INTEGER}`;
  }
  return null;
}

/**
 * The model event as it may be logged, or a `model_error` saying, like an API error would, what in the reply
 * could not be accepted (the run then ends as a failed model call, nothing of the bad event recorded).
 */
export function recordableModelEvent(event: LoopEvent): LoopEvent {
  const problem =
    (event.type === 'model_done' ? impossibleUsage(event.usage, 'usage') : null) ??
    (event.type === 'model_message' ? impossibleUsage(event.message.message.usage, 'message.usage') : null) ??
    jsonRoundTripProblem(event, MAX_MODEL_EVENT_DEPTH) ??
    (isLoopEvent(event) ? null : 'it does not have the shape of a model event');
  if (problem === null) return event;
  return { type: 'model_error', error: { kind: 'other', message: `invalid response from the API: ${event.type === 'model_done' ? 'the end of the reply' : 'a reply message'} cannot be accepted: ${problem}` } };
}
