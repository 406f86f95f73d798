/**
 * A tool's result event read from its logged text without parsing the whole of it, for `parseEventText`
 * (`event-text.ts`): the spelling the recorder's template writes (`toolResultEventJson` in `event-json.ts`),
 *
 *   {"type":"tool_result","toolUseId":S,"message":{"type":"user","uuid":S,"message":{"role":"user","content":
 *   [{"type":"tool_result","tool_use_id":S,"content":C[,"is_error":true]}]},"sourceToolUseId":S}}
 *
 * with any JSON strings S and C (escapes included: newlines and quotes in a tool's output are the rule).
 * `JSON.parse` of such a text cost about 1.1 µs here, mostly its four objects and their keys; this builds the same
 * objects as literals (V8 gives them the maps `JSON.parse` gives) around the strings (`json-string-text.ts`).
 * The three strings before the content are read forward, the last one backward from the end, and the content is
 * what lies between: its closing quote is never searched for, and its text is read once, by `JSON.parse` of its
 * own slice when it is long or escaped (a tool's output can be kilobytes of escaped quotes and newlines).
 *
 * Invariant: the result is what `JSON.parse` gives for the text: deep-equal, members in the same order, fresh
 * objects. JSON's grammar has one parse per text, so when the fixed parts match and each string's span is one JSON
 * string, the whole text parses to exactly these objects. Any other spelling (a space, another member or order, a
 * non-string where a string is, a string that is not JSON) gives `undefined`, and the caller parses the text.
 */
import { jsonStringEnd, jsonStringValue, sameSpan } from './json-string-text.ts';
import { fixedEnd } from './template-scan.ts';

const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;

/**
 * The fixed text before each of the first three strings with that string when it is plain (one test, the common
 * case), and the fixed text alone (then the string is read by `jsonStringEnd`).
 */
const HEAD_ID = /\{"type":"tool_result","toolUseId":"[^"\\\u0000-\u001f]*"/y;
const HEAD = /\{"type":"tool_result","toolUseId":/y;
const UUID = /,"message":\{"type":"user","uuid":"[^"\\\u0000-\u001f]*"/y;
const TO_UUID = /,"message":\{"type":"user","uuid":/y;
const BLOCK_ID = /,"message":\{"role":"user","content":\[\{"type":"tool_result","tool_use_id":"[^"\\\u0000-\u001f]*"/y;
const TO_BLOCK_ID = /,"message":\{"role":"user","content":\[\{"type":"tool_result","tool_use_id":/y;
const TO_CONTENT = /,"content":"/y;
const TO_SOURCE = /\}\]\},"sourceToolUseId":/y;
const TO_SOURCE_AFTER_ERROR = /,"is_error":true\}\]\},"sourceToolUseId":/y;
const TO_SOURCE_LENGTH = '}]},"sourceToolUseId":'.length;
const TO_SOURCE_AFTER_ERROR_LENGTH = ',"is_error":true}]},"sourceToolUseId":'.length;

/**
 * The end of the string after a fixed text at `at` (as `jsonStringEnd` gives it: negated when not plain), by
 * `withPlain` (that text and a plain string) or else `fixed` (that text alone) and `jsonStringEnd`; 0 when neither.
 */
function stringAfter(withPlain: RegExp, fixed: RegExp, text: string, at: number): number {
  const plainEnd = fixedEnd(withPlain, text, at);
  if (plainEnd >= 0) return plainEnd;
  const stringAt = fixedEnd(fixed, text, at);
  return stringAt < 0 ? 0 : jsonStringEnd(text, stringAt);
}

/**
 * The opening quote of the string whose closing quote is text[close]: the first quote before it that no odd run of
 * backslashes escapes (inside a JSON string every quote is escaped); -1 when there is none.
 */
function openingQuote(text: string, close: number): number {
  for (let quote = text.lastIndexOf('"', close - 1); quote >= 0; quote = text.lastIndexOf('"', quote - 1)) {
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === BACKSLASH) backslash -= 1;
    if ((quote - backslash) % 2 === 1) return quote;
  }
  return -1;
}

/**
 * The event of text[start, end) when it is spelled as the template writes it (see above), else `undefined`.
 */
export function toolResultAt(text: string, start: number, end: number): unknown {
  const idEnd = stringAfter(HEAD_ID, HEAD, text, start);
  if (idEnd === 0) return undefined;
  const uuidEnd = stringAfter(UUID, TO_UUID, text, Math.abs(idEnd));
  if (uuidEnd === 0) return undefined;
  const blockIdEnd = stringAfter(BLOCK_ID, TO_BLOCK_ID, text, Math.abs(uuidEnd));
  if (blockIdEnd === 0) return undefined;
  const contentAt = fixedEnd(TO_CONTENT, text, Math.abs(blockIdEnd)) - 1;
  if (contentAt < 0) return undefined;
  // Backward from the end: `"}}`, the last string's opening quote, the fixed text before it, and so where the
  // content ends.
  const sourceEnd = end - 2;
  if (text.charCodeAt(end - 1) !== CLOSE_BRACE || text.charCodeAt(end - 2) !== CLOSE_BRACE || text.charCodeAt(sourceEnd - 1) !== QUOTE) return undefined;
  const sourceAt = openingQuote(text, sourceEnd - 1);
  // With `,"is_error":true` first: the text after it matches the other spelling too.
  let contentEnd = sourceAt - TO_SOURCE_AFTER_ERROR_LENGTH;
  const isError = contentEnd > contentAt && fixedEnd(TO_SOURCE_AFTER_ERROR, text, contentEnd) === sourceAt;
  if (!isError) {
    contentEnd = sourceAt - TO_SOURCE_LENGTH;
    if (fixedEnd(TO_SOURCE, text, contentEnd) !== sourceAt) return undefined;
  }
  if (contentEnd < contentAt + 2 || text.charCodeAt(contentEnd - 1) !== QUOTE) return undefined;
  // Where each string starts: its end less its length is not known, so from the fixed texts' lengths.
  const idAt = start + ID_AT;
  const uuidAt = Math.abs(idEnd) + UUID_AFTER;
  const blockIdAt = Math.abs(uuidEnd) + BLOCK_ID_AFTER;
  try {
    const toolUseId = jsonStringValue(text, idAt, idEnd);
    // The same id is written up to three times: one string for each spelling alike.
    const blockId = sameSpan(text, idAt, Math.abs(idEnd), blockIdAt, Math.abs(blockIdEnd)) ? toolUseId : jsonStringValue(text, blockIdAt, blockIdEnd);
    const sourceToolUseId = sameSpan(text, idAt, Math.abs(idEnd), sourceAt, sourceEnd) ? toolUseId : jsonStringValue(text, sourceAt, -sourceEnd);
    const uuid = jsonStringValue(text, uuidAt, uuidEnd);
    const content = jsonStringValue(text, contentAt, -contentEnd);
    const block = isError
      ? { type: 'tool_result', tool_use_id: blockId, content, is_error: true }
      : { type: 'tool_result', tool_use_id: blockId, content };
    return { type: 'tool_result', toolUseId, message: { type: 'user', uuid, message: { role: 'user', content: [block] }, sourceToolUseId } };
  } catch {
    // A span that is not one JSON string: the caller's `JSON.parse` of the whole text words it.
    return undefined;
  }
}

/** From the end of each string (or the event's start) to the next one's opening quote. */
const ID_AT = '{"type":"tool_result","toolUseId":'.length;
const UUID_AFTER = ',"message":{"type":"user","uuid":'.length;
const BLOCK_ID_AFTER = ',"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":'.length;
