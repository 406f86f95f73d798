/**
 * The model's API message (the reply inside a `model_message` event, `model-message-text.ts`) read from its logged
 * text without parsing the whole of it, in the shape the stream adapter gives it (`stream-to-messages.ts`: one block
 * per message) and `JSON.stringify` writes:
 *
 *   {"id":S,"role":"assistant","model":S,"content":[B],"stop_reason":S|null[,"usage":U]}
 *   B: {"type":"text","text":T} or {"type":"tool_use","id":S,"name":S,"input":J}
 *
 * S a plain JSON string (no escape), T any JSON string, J any JSON text, U a record of numbers. The start of the
 * block's text or input is read forward, the stop reason and the usage backward from the end, and T or J is what
 * lies between: parsed alone (`JSON.parse` of its slice when escaped or long, `json-string-text.ts`), as is a usage
 * other than `{"input_tokens":N,"output_tokens":N}`, which is built as a literal (the shape `JSON.parse` gives).
 * `JSON.parse` of the whole reply cost about 1.1 µs here, mostly its objects and their keys.
 *
 * Invariant: the result is what `JSON.parse` gives for the text, deep-equal, members in the same order, fresh
 * objects; JSON's grammar has one parse per text, so when the fixed parts match and each piece parses alone, the
 * whole parses to exactly these objects. Any other spelling gives `undefined` (the caller parses the reply).
 */
import { jsonStringValue } from './json-string-text.ts';
import { covers, plainUsageAt, type EventRead } from './template-scan.ts';

const CLOSE_BRACE = 0x7d;
const E = 0x65;
const QUOTE = 0x22;

/** `{"id":S,"role":"assistant","model":S,"content":[`, S plain. */
const HEAD = /\{"id":"[^"\\\u0000-\u001f]*","role":"assistant","model":"[^"\\\u0000-\u001f]*","content":\[/y;
const ID_AT = '{"id":'.length;
const TO_MODEL = ',"role":"assistant","model":'.length;
const TO_CONTENT = ',"content":['.length;
const NEXT_BLOCK = '},{"type":';
const TEXT_BLOCK = /\{"type":"text","text":"/y;
/** A tool use up to its input, its id and name plain. */
const TOOL_USE_BLOCK = /\{"type":"tool_use","id":"[^"\\\u0000-\u001f]*","name":"[^"\\\u0000-\u001f]*","input":/y;
const TOOL_USE_ID_AT = '{"type":"tool_use","id":'.length;
const TO_NAME = ',"name":'.length;
const TO_INPUT = ',"input":'.length;
const TO_STOP_REASON = /\}\],"stop_reason":/y;
const TO_STOP_REASON_LENGTH = '}],"stop_reason":'.length;
const TO_USAGE = /,"usage":/y;
const TO_USAGE_LENGTH = ',"usage":'.length;
/** The usage with two plain counts of at most 15 digits (exact as doubles). */
const PLAIN_USAGE = /\{"input_tokens":(?:0|[1-9][0-9]{0,14}),"output_tokens":(?:0|[1-9][0-9]{0,14})\}/y;
const PLAIN_STRING = /"[^"\\\u0000-\u001f]*"/y;

/** `{"type":"t`: the next letter tells `text` from `tool_use`. */
const TYPE_SECOND_LETTER = 10;

/**
 * The reply of text[start, end) when spelled as above, else `undefined`; throws when a piece is not JSON. When it
 * gives a reply, `read.checked` says whether all of it was built here (a usage other than two plain counts is parsed).
 */
export function replyAt(text: string, start: number, end: number, read: EventRead): unknown {
  HEAD.lastIndex = start;
  if (!HEAD.test(text) || text.charCodeAt(end - 1) !== CLOSE_BRACE) return undefined;
  const blockAt = HEAD.lastIndex;
  // Backward: the usage (a flat record: its `{` is the last one), the stop reason, the end of the content.
  let stopEnd = end - 1;
  let usageAt = -1;
  if (text.charCodeAt(end - 2) === CLOSE_BRACE) {
    usageAt = text.lastIndexOf('{', end - 2);
    stopEnd = usageAt - TO_USAGE_LENGTH;
    if (usageAt <= blockAt || !covers(TO_USAGE, text, stopEnd, usageAt)) return undefined;
  }
  let stopAt: number;
  let stopReason: string | null = null;
  if (text.charCodeAt(stopEnd - 1) === QUOTE) {
    stopAt = text.lastIndexOf('"', stopEnd - 2);
    if (stopAt <= blockAt || !covers(PLAIN_STRING, text, stopAt, stopEnd)) return undefined;
    stopReason = jsonStringValue(text, stopAt, stopEnd);
  } else {
    stopAt = stopEnd - 4;
    if (text.slice(stopAt, stopEnd) !== 'null') return undefined;
  }
  // The block's closing brace.
  const blockClose = stopAt - TO_STOP_REASON_LENGTH;
  if (blockClose <= blockAt || !covers(TO_STOP_REASON, text, blockClose, stopAt)) return undefined;
  const block = blockAt === blockClose ? undefined : blockOf(text, blockAt, blockClose);
  if (block === undefined) return undefined;
  const idAt = start + ID_AT;
  const idEnd = text.indexOf('"', idAt + 1) + 1;
  const modelEnd = blockAt - TO_CONTENT;
  const id = jsonStringValue(text, idAt, idEnd);
  const model = jsonStringValue(text, idEnd + TO_MODEL, modelEnd);
  const content = [block];
  if (usageAt < 0) {
    read.checked = true;
    return { id, role: 'assistant', model, content, stop_reason: stopReason };
  }
  const plain = covers(PLAIN_USAGE, text, usageAt, end - 1);
  read.checked = plain;
  const usage = plain ? plainUsageAt(text, usageAt) : (JSON.parse(text.slice(usageAt, end - 1)) as unknown);
  return { id, role: 'assistant', model, content, stop_reason: stopReason, usage };
}

/**
 * The block text[at, close] (`close` its closing brace), or `undefined` when it is neither spelling above or the
 * content holds more than one block (`},{"type":` cannot occur inside a JSON string: it holds a bare quote; a tool's
 * input holding it is left to the parser too), so that the pieces parsed alone are single values.
 */
function blockOf(text: string, at: number, close: number): unknown {
  // A slice: `indexOf` of the whole text would search on to its end.
  if (text.slice(at, close).indexOf(NEXT_BLOCK) >= 0) return undefined;
  if (text.charCodeAt(at + TYPE_SECOND_LETTER) === E) {
    TEXT_BLOCK.lastIndex = at;
    if (!TEXT_BLOCK.test(text) || text.charCodeAt(close - 1) !== QUOTE) return undefined;
    // The text runs from its opening quote to the closing brace: one JSON string, or `jsonStringValue` throws.
    return { type: 'text', text: jsonStringValue(text, TEXT_BLOCK.lastIndex - 1, -close) };
  }
  TOOL_USE_BLOCK.lastIndex = at;
  if (!TOOL_USE_BLOCK.test(text)) return undefined;
  const inputAt = TOOL_USE_BLOCK.lastIndex;
  if (inputAt >= close) return undefined;
  const idAt = at + TOOL_USE_ID_AT;
  const idEnd = text.indexOf('"', idAt + 1) + 1;
  const id = jsonStringValue(text, idAt, idEnd);
  const name = jsonStringValue(text, idEnd + TO_NAME, inputAt - TO_INPUT);
  return { type: 'tool_use', id, name, input: JSON.parse(text.slice(inputAt, close)) as unknown };
}
