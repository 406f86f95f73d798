/**
 * The event of a logged line from its text, for `replay()`'s one pass (`replay.ts`): `JSON.parse` of the text, but
 * the few texts that nearly every turn logs alike are built without the parser: a context layer that changed
 * nothing, the end of a tool batch, no attachments, and the end of a model call that reports no cache counts. Those are
 * most of a log's lines and the parser's cost for such a short text is mostly the call itself.
 *
 * Invariant: the result is what `JSON.parse` gives for the same text: a fresh object of its own (nothing shared
 * between lines), deep-equal, its members in the same order. Any other spelling of those events (a space, another
 * member, an escape, a number that is not a plain integer) goes through `JSON.parse`. Whether the event is valid is
 * the caller's check, as for any other.
 *
 * Each text is recognised by one character after `{"type":"` and then a sticky regular expression that must cover
 * it exactly: `startsWith` at an offset cost about 55 ns a call here, three times the expression's test, and every
 * line asked it up to three times.
 *
 * A tool's result and the model's reply (written by the recorder's templates, `event-json.ts`) are read by template
 * readers of their own, any strings and escapes included (`tool-result-text.ts`, `model-message-text.ts`,
 * `reply-text.ts`: a tool's input, the flags and long or escaped strings alone through `JSON.parse`), when the
 * whole text is Latin-1; a text they do not take goes through `JSON.parse` whole.
 */
import { isLatin1Text } from './json-string-text.ts';
import { modelMessageAt } from './model-message-text.ts';
import { covers, plainUsageAt, type EventRead } from './template-scan.ts';
import { toolResultAt } from './tool-result-text.ts';

/** Where the type's name starts: after `{"type":"`. */
const TYPE_NAME = 9;
/** `{"type":"model_`: the character after it tells `model_done` from `model_message`. */
const MODEL_SUFFIX = 15;
const LAYER_RESULT_START = '{"type":"context_layer_result","layer":"'.length;
const LAYER_RESULT_END = '","edits":[],"tokensFreed":0}'.length;

const TOOLS_FINISHED = /\{"type":"tools_finished"\}/y;
const NO_ATTACHMENTS = /\{"type":"attachments_collected","attachments":\[\]\}/y;
/** The layer's name: a JSON string without escapes (no quote, backslash or control character). */
const LAYER_RESULT = /\{"type":"context_layer_result","layer":"[^"\\\u0000-\u001f]*","edits":\[\],"tokensFreed":0\}/y;
/**
 * The usage a model call reports with no cache members, each count a plain integer of at most 15 digits (exact as a
 * double); the stop reason a string without escapes. Other usages (cache counts, nulls, another order) are parsed:
 * `plainUsageAt` builds the usage in the shape `JSON.parse` gives it (`template-scan.ts`).
 */
const MODEL_DONE = /\{"type":"model_done","usage":\{"input_tokens":(?:0|[1-9][0-9]{0,14}),"output_tokens":(?:0|[1-9][0-9]{0,14})\},"stopReason":"[^"\\\u0000-\u001f]*"\}/y;
const USAGE_START = '{"type":"model_done","usage":'.length;

const T = 0x74;
const A = 0x61;
const C = 0x63;
const M = 0x6d;
const D = 0x64;

/**
 * The JSON value of text[start, end) (see the module comment); throws as `JSON.parse` does on text that is not JSON.
 * `latin1` is `isLatin1Text(text)`, which a caller reading many events of one text finds once: the template readers
 * read a Latin-1 text only, and names are cut out of such a text only (`json-string-text.ts` says why).
 * `read.checked` is set on every call: true when the event has the schema's shape by construction (see
 * `EventRead`; a context layer's name is not checked here, so that event never is).
 */
export function parseEventText(text: string, start: number, end: number, latin1 = isLatin1Text(text), read: EventRead = { checked: false }): unknown {
  read.checked = true;
  const first = text.charCodeAt(start + TYPE_NAME);
  if (first === T) {
    if (covers(TOOLS_FINISHED, text, start, end)) return { type: 'tools_finished' };
    const event = latin1 ? toolResultAt(text, start, end) : undefined;
    if (event !== undefined) return event;
  } else if (first === A) {
    if (covers(NO_ATTACHMENTS, text, start, end)) return { type: 'attachments_collected', attachments: [] };
  } else if (first === C) {
    read.checked = false;
    if (covers(LAYER_RESULT, text, start, end)) {
      return { type: 'context_layer_result', layer: nameAt(text, start + LAYER_RESULT_START - 1, end - LAYER_RESULT_END + 1, latin1), edits: [], tokensFreed: 0 };
    }
  } else if (first === M) {
    const suffix = text.charCodeAt(start + MODEL_SUFFIX);
    if (suffix === D) {
      if (covers(MODEL_DONE, text, start, end)) return modelDoneAt(text, start, end, latin1);
    } else if (suffix === M) {
      const event = latin1 ? modelMessageAt(text, start, end, read) : undefined;
      if (event !== undefined) return event;
    }
  }
  read.checked = false;
  return JSON.parse(text.slice(start, end));
}

/** The `model_done` event of text[start, end), which `MODEL_DONE` covers (its stop reason holds no quote). */
function modelDoneAt(text: string, start: number, end: number, latin1: boolean): unknown {
  const usage = plainUsageAt(text, start + USAGE_START);
  return { type: 'model_done', usage, stopReason: nameAt(text, text.lastIndexOf('"', end - 3), end - 1, latin1) };
}

/**
 * A plain JSON string text[at, end) (quotes included) that names something (a layer, a stop reason): cut out of a
 * Latin-1 text, else parsed, for a one-byte string (`json-string-text.ts` says why).
 */
function nameAt(text: string, at: number, end: number, latin1: boolean): string {
  return latin1 ? text.slice(at + 1, end - 1) : (JSON.parse(text.slice(at, end)) as string);
}
