/**
 * The logged JSON text of a commit group's events, for the recorder (`session-recorder.ts`), redacted. The events
 * nearly every turn logs alike are written from templates: a context layer that changed nothing, the end of a tool
 * batch, no attachments, the end of a reply with its two token counts. Most of a turn's lines are these, and
 * `JSON.stringify` of so short an object costs mostly the call.
 *
 * Invariants:
 * - The text is exactly `JSON.stringify(event)`, or `null` when the event is not exactly of the expected shape
 *   (another member, members in another order, a `toJSON`, a layer name or stop reason outside the known sets, a
 *   number that is not finite): the caller then serialises it as any other.
 * - The text holds nothing a secret check can find but its fixed words, known names and numbers
 *   (`test/unit/replay/event-json.test.ts` holds every such text to the redactor's verdict), so it may be left out
 *   of the check when no literal secret value nor extra pattern is being masked.
 * - A tool's result and the model's reply (one or two a turn) are written from templates too when they have the
 *   shapes the tool runtime and the interpreter give them (`toolResultEventJson`, `modelMessageEventJson`): the
 *   reply's API message and its `concurrencySafe` flags by `JSON.stringify`, the rest around them. Their strings
 *   and those two JSON texts can hold anything, so they are checked for secrets, but only they: the fixed words
 *   between them are clean and no word of the check contains a quote, bracket or brace, so a match in the whole
 *   text lies inside one of them (`test/unit/replay/message-event-json.test.ts`
 *   holds the two verdicts equal). With a literal secret value or an extra pattern the whole text is checked.
 * The replay side reads the same texts back without the parser (`event-text.ts`).
 */
import { CONTEXT_LAYERS } from '../data/effects.ts';
import type { LoopEvent } from '../data/events.ts';
import type { Redactor } from './redact.ts';

const LAYERS: ReadonlySet<string> = new Set(CONTEXT_LAYERS);
/** The Messages API's stop reasons. */
const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal']);

const TOOLS_FINISHED_MEMBERS = ['type'];
const ATTACHMENTS_MEMBERS = ['type', 'attachments'];
const LAYER_RESULT_MEMBERS = ['type', 'layer', 'edits', 'tokensFreed'];
const MODEL_DONE_MEMBERS = ['type', 'usage', 'stopReason'];
const USAGE_MEMBERS = ['input_tokens', 'output_tokens'];

/**
 * Whether `value` has exactly these enumerable members, in this order (what `JSON.stringify` writes), and no
 * `toJSON` of its own or inherited. `for…in` also lists inherited enumerable members, which only makes it fail.
 */
function hasExactly(value: object, members: readonly string[]): boolean {
  if ((value as { toJSON?: unknown }).toJSON !== undefined) return false;
  let i = 0;
  for (const key in value) {
    if (key !== members[i]) return false;
    i++;
  }
  return i === members.length;
}

function isEmptyArray(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0 && (value as { toJSON?: unknown }).toJSON === undefined;
}

/** A number `JSON.stringify` writes as `String(n)` (finite; -0 is written "0" by both). */
function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function modelDoneJson(event: object): string | null {
  if (!hasExactly(event, MODEL_DONE_MEMBERS)) return null;
  const { usage, stopReason } = event as { usage: unknown; stopReason: unknown };
  if (typeof usage !== 'object' || usage === null || !hasExactly(usage, USAGE_MEMBERS)) return null;
  const { input_tokens: input, output_tokens: output } = usage as { input_tokens: unknown; output_tokens: unknown };
  if (!isFiniteNumber(input) || !isFiniteNumber(output)) return null;
  if (stopReason !== null && !(typeof stopReason === 'string' && STOP_REASONS.has(stopReason))) return null;
  const reason = stopReason === null ? 'null' : `"${stopReason}"`;
  return `{"type":"model_done","usage":{"input_tokens":${String(input)},"output_tokens":${String(output)}},"stopReason":${reason}}`;
}

/** `JSON.stringify(event)` for the common shapes above, else `null` (see the module comment). */
export function commonEventJson(event: LoopEvent): string | null {
  switch (event.type) {
    case 'tools_finished':
      return hasExactly(event, TOOLS_FINISHED_MEMBERS) ? '{"type":"tools_finished"}' : null;
    case 'attachments_collected':
      return hasExactly(event, ATTACHMENTS_MEMBERS) && isEmptyArray(event.attachments) ? '{"type":"attachments_collected","attachments":[]}' : null;
    case 'context_layer_result': {
      if (!hasExactly(event, LAYER_RESULT_MEMBERS) || !isEmptyArray(event.edits)) return null;
      const { layer, tokensFreed } = event as { layer: unknown; tokensFreed: unknown };
      if (typeof layer !== 'string' || !LAYERS.has(layer) || !isFiniteNumber(tokensFreed)) return null;
      return `{"type":"context_layer_result","layer":"${layer}","edits":[],"tokensFreed":${String(tokensFreed)}}`;
    }
    case 'model_done':
      return modelDoneJson(event);
    default:
      return null;
  }
}

const TOOL_RESULT_MEMBERS = ['type', 'toolUseId', 'message'];
const RESULT_MESSAGE_MEMBERS = ['type', 'uuid', 'message', 'sourceToolUseId'];
const RESULT_BODY_MEMBERS = ['role', 'content'];
const RESULT_BLOCK_MEMBERS = ['type', 'tool_use_id', 'content'];
const ERROR_BLOCK_MEMBERS = ['type', 'tool_use_id', 'content', 'is_error'];

/** A string JSON writes between quotes as it is (no quote, backslash, control character or surrogate to escape). */
const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/** `JSON.stringify(value)` of a string: quoted as it is when nothing in it needs escaping. */
function stringJson(value: string): string {
  return PLAIN_STRING.test(value) ? `"${value}"` : JSON.stringify(value);
}

/**
 * A tool's result event as the tool runtime makes it (`toolResultEvent` in `src/tools/tool-result-message.ts`), with
 * text content and nothing optional but the block's `is_error: true`: `[json, free]`, where `json` is exactly
 * `JSON.stringify(event)` and `free` holds the JSON texts of its strings alone (ids, uuid, content; an id that repeats
 * is there once), one a line;
 * `null` for any other shape. The rest of `json` is fixed words, which the secret check finds clean, and none of
 * the check's words can reach across a string's quotes, so checking `free` finds what checking `json` finds.
 */
export function toolResultEventJson(event: LoopEvent): [json: string, free: string] | null {
  if (!hasExactly(event, TOOL_RESULT_MEMBERS)) return null;
  const { toolUseId, message } = event as { toolUseId: unknown; message: unknown };
  if (typeof toolUseId !== 'string' || typeof message !== 'object' || message === null || !hasExactly(message, RESULT_MESSAGE_MEMBERS)) return null;
  const { type, uuid, message: body, sourceToolUseId } = message as { type: unknown; uuid: unknown; message: unknown; sourceToolUseId: unknown };
  if (type !== 'user' || typeof uuid !== 'string' || typeof sourceToolUseId !== 'string') return null;
  if (typeof body !== 'object' || body === null || !hasExactly(body, RESULT_BODY_MEMBERS)) return null;
  const { role, content: blocks } = body as { role: unknown; content: unknown };
  if (role !== 'user' || !Array.isArray(blocks) || blocks.length !== 1 || (blocks as { toJSON?: unknown }).toJSON !== undefined) return null;
  const block = blocks[0] as unknown;
  if (typeof block !== 'object' || block === null) return null;
  const isError = (block as { is_error?: unknown }).is_error === true;
  if (!hasExactly(block, isError ? ERROR_BLOCK_MEMBERS : RESULT_BLOCK_MEMBERS)) return null;
  const { type: blockType, tool_use_id: blockId, content } = block as { type: unknown; tool_use_id: unknown; content: unknown };
  if (blockType !== 'tool_result' || typeof blockId !== 'string' || typeof content !== 'string') return null;
  const id = stringJson(toolUseId);
  const uuidJson = stringJson(uuid);
  const blockIdJson = blockId === toolUseId ? id : stringJson(blockId);
  const contentJson = stringJson(content);
  const sourceJson = sourceToolUseId === toolUseId ? id : stringJson(sourceToolUseId);
  const json = `{"type":"tool_result","toolUseId":${id},"message":{"type":"user","uuid":${uuidJson},"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":${blockIdJson},"content":${contentJson}${isError ? ',"is_error":true' : ''}}]},"sourceToolUseId":${sourceJson}}}`;
  // An id written twice or three times is checked once (the same text gives the same verdict).
  let free = `${id}\n${uuidJson}\n${contentJson}`;
  if (blockIdJson !== id) free += `\n${blockIdJson}`;
  if (sourceJson !== id) free += `\n${sourceJson}`;
  return [json, free];
}

const MODEL_MESSAGE_MEMBERS = ['type', 'message', 'concurrencySafe'];
const MODEL_MESSAGE_PLAIN_MEMBERS = ['type', 'message'];
const ASSISTANT_MEMBERS = ['type', 'uuid', 'message', 'timestamp'];
const ASSISTANT_UNTIMED_MEMBERS = ['type', 'uuid', 'message'];

/**
 * The model's reply as the interpreter wraps it (`{ type, message: { type: 'assistant', uuid, message, timestamp },
 * concurrencySafe }`): `[json, free]` as for a tool result, the reply's API message and the flags written by
 * `JSON.stringify` (any content) and in `free` whole, with the uuid; `null` for any other shape.
 */
export function modelMessageEventJson(event: LoopEvent): [json: string, free: string] | null {
  const flags = (event as { concurrencySafe?: unknown }).concurrencySafe;
  if (!hasExactly(event, flags === undefined ? MODEL_MESSAGE_PLAIN_MEMBERS : MODEL_MESSAGE_MEMBERS)) return null;
  const message = (event as { message: unknown }).message;
  if (typeof message !== 'object' || message === null) return null;
  const timestamp = (message as { timestamp?: unknown }).timestamp;
  if (!hasExactly(message, timestamp === undefined ? ASSISTANT_UNTIMED_MEMBERS : ASSISTANT_MEMBERS)) return null;
  const { type, uuid, message: reply } = message as { type: unknown; uuid: unknown; message: unknown };
  if (type !== 'assistant' || typeof uuid !== 'string' || (timestamp !== undefined && !isFiniteNumber(timestamp))) return null;
  // Written alone, the reply's own `toJSON` would be called with another key: leave such a reply to the caller.
  if (typeof reply !== 'object' || reply === null || (reply as { toJSON?: unknown }).toJSON !== undefined) return null;
  const uuidJson = stringJson(uuid);
  const replyJson = JSON.stringify(reply);
  let json = `{"type":"model_message","message":{"type":"assistant","uuid":${uuidJson},"message":${replyJson}`;
  if (timestamp !== undefined) json += `,"timestamp":${String(timestamp)}`;
  if (flags === undefined) return [`${json}}}`, `${uuidJson}\n${replyJson}`];
  // The flags (a new object each turn, keyed by tool-use ids) are written by `JSON.stringify` too, as the event's
  // would write them (its own `toJSON` would be called with another key: left to the caller); checked whole.
  if (typeof flags !== 'object' || flags === null || (flags as { toJSON?: unknown }).toJSON !== undefined) return null;
  const flagsJson = JSON.stringify(flags);
  return [`${json}},"concurrencySafe":${flagsJson}}`, `${uuidJson}\n${replyJson}\n${flagsJson}`];
}

/**
 * The logged JSON text of each step's event, redacted. The check for secrets runs once over all of them joined:
 * a text clean as a whole is clean in each of its parts, and only when it is not is each event checked (and
 * masked) on its own. The common events' templates (`commonEventJson`) are left out of that check when
 * `checksCommon` is false (no literal secret value nor extra pattern is masked): their texts hold no word the check
 * looks for; of a tool result's or a reply's template, only the strings and JSON texts written into it are checked
 * then. Stops before a step whose event cannot be serialised, returning what came before it and the failure.
 */
export function loggedEventJsons(steps: readonly { event: LoopEvent }[], redact: Redactor, checksCommon: boolean): { jsons: string[]; failure: unknown } {
  const jsons: string[] = [];
  let checked = '';
  let failure: unknown = null;
  for (let i = 0; i < steps.length; i++) {
    const event = steps[i].event;
    let json: string | null;
    // What the secret check reads of this event: its whole text, or (a tool result's template) its strings alone.
    let free: string;
    try {
      json = commonEventJson(event);
      if (json !== null) {
        if (!checksCommon) {
          jsons.push(json);
          continue;
        }
        free = json;
      } else {
        const result = event.type === 'tool_result' ? toolResultEventJson(event) : event.type === 'model_message' ? modelMessageEventJson(event) : null;
        json = result === null ? JSON.stringify(event) : result[0];
        free = result === null || checksCommon ? json : result[1];
      }
    } catch (caught) {
      failure = caught;
      break;
    }
    jsons.push(json);
    checked = checked === '' ? free : `${checked}\n${free}`;
  }
  if (checked !== '' && !redact.isCleanJson(checked)) for (let i = 0; i < jsons.length; i++) jsons[i] = redact.toJson(steps[i].event);
  return { jsons, failure };
}
