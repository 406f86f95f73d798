/**
 * The model's reply event read from its logged text with the parser run on the reply alone, for `parseEventText`
 * (`event-text.ts`): the spelling the recorder's template writes (`modelMessageEventJson` in `event-json.ts`),
 *
 *   {"type":"model_message","message":{"type":"assistant","uuid":S,"message":R[,"timestamp":N]}[,"concurrencySafe":F]}
 *
 * S any JSON string, R any JSON text (the API message), N a plain integer of at most 15 digits, F a record of
 * booleans whose keys hold no escape. The reply R is found from both ends: its start by reading forward over the
 * fixed text and the uuid, its end by reading backward over the flags and the timestamp; R and F are then parsed
 * alone. The wrapper's two objects cost about 0.8 µs of the whole text's 2 µs in `JSON.parse` here.
 *
 * Why that is exactly `JSON.parse` of the whole: JSON's grammar has one parse per text, so when the fixed parts
 * match and R and F each parse as one JSON value, the whole text parses to the wrapper around those two values (its
 * members are fixed names, so no duplicate or `__proto__` member can arise outside R and F). Any piece that does not
 * match, or does not parse, gives `undefined`, and the caller parses the whole text (which words any error).
 */
import { jsonStringEnd, jsonStringValue } from './json-string-text.ts';
import { replyAt } from './reply-text.ts';
import { fixedEnd, type EventRead } from './template-scan.ts';

const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const E = 0x65;
const NINE = 0x39;
const OPEN_BRACE = 0x7b;
const QUOTE = 0x22;
const ZERO = 0x30;

const HEAD = /\{"type":"model_message","message":\{"type":"assistant","uuid":(?=")/y;
const TO_REPLY = /,"message":/y;
const TIMESTAMP_MEMBER = ',"timestamp":';
const TIMESTAMP_MEMBER_TEXT = /,"timestamp":/y;
const FLAGS_MEMBER = ',"concurrencySafe":';
const FLAGS_MEMBER_TEXT = /\},"concurrencySafe":/y;
/** One flag's key: a JSON string without escapes, then `:`. */
const FLAG_KEY = /"[^"\\\u0000-\u001f]*":/y;
/** A timestamp's digits: a plain integer of at most 15 (exact as a double). */
const MAX_DIGITS = 15;

/**
 * Where the flags' record starts, its closing brace being text[close]: read backward over `"key":true` and
 * `"key":false` members; -1 when they are not so spelled (the parser of the flags then holds the rest).
 */
function flagsStart(text: string, from: number, close: number): number {
  let at = close;
  // `at` is where a member ends (a `}` or `,` after it): step back over `true` or `false`, `:`, the key.
  while (text.charCodeAt(at - 1) !== OPEN_BRACE) {
    if (text.charCodeAt(at - 1) !== E) return -1;
    const valueStart = text.charCodeAt(at - 5) === 0x66 ? at - 5 : at - 4; // `false` or `true`
    const keyEnd = valueStart - 1; // the `:`
    if (text.charCodeAt(keyEnd - 1) !== QUOTE) return -1;
    const keyStart = text.lastIndexOf('"', keyEnd - 2);
    if (keyStart <= from || fixedEnd(FLAG_KEY, text, keyStart) !== valueStart) return -1;
    const before = text.charCodeAt(keyStart - 1);
    if (before === OPEN_BRACE) return keyStart - 1;
    if (before !== COMMA) return -1;
    at = keyStart - 1;
  }
  return at - 1;
}

/**
 * The event of text[start, end) when it is spelled as the template writes it (see above), else `undefined`. When it
 * gives an event, `read.checked` says whether it has the schema's shape by construction (see `EventRead`): the
 * reply read by `replyAt` with a plain usage. The flags parsed alone are booleans by construction: `flagsStart`
 * read each member's value as four or five characters ending in `e`, and the only such JSON values are `true` and
 * `false` (a test holds the claim to `isLoopEvent`).
 */
export function modelMessageAt(text: string, start: number, end: number, read: EventRead): unknown {
  const uuidAt = fixedEnd(HEAD, text, start);
  if (uuidAt < 0) return undefined;
  const uuidEnd = jsonStringEnd(text, uuidAt);
  if (uuidEnd === 0) return undefined;
  const replyStart = fixedEnd(TO_REPLY, text, Math.abs(uuidEnd));
  if (replyStart < 0 || text.charCodeAt(end - 1) !== CLOSE_BRACE || text.charCodeAt(end - 2) !== CLOSE_BRACE) return undefined;
  // The message's closing brace, after the flags (which end in `true}`, `false}` or `{}`) or right before the end.
  let messageEnd = end - 2;
  let flagsAt = -1;
  const last = text.charCodeAt(end - 3);
  if (last === E || last === OPEN_BRACE) {
    flagsAt = flagsStart(text, replyStart, end - 2);
    if (flagsAt < 0) return undefined;
    messageEnd = flagsAt - FLAGS_MEMBER.length - 1;
    if (fixedEnd(FLAGS_MEMBER_TEXT, text, messageEnd) !== flagsAt) return undefined;
  }
  let replyEnd = messageEnd;
  let timestamp = -1;
  if (isDigit(text.charCodeAt(messageEnd - 1))) {
    let digits = messageEnd - 1;
    while (isDigit(text.charCodeAt(digits - 1))) digits -= 1;
    const count = messageEnd - digits;
    if (count > MAX_DIGITS || (count > 1 && text.charCodeAt(digits) === ZERO)) return undefined;
    replyEnd = digits - TIMESTAMP_MEMBER.length;
    if (replyEnd <= replyStart || fixedEnd(TIMESTAMP_MEMBER_TEXT, text, replyEnd) !== digits) return undefined;
    timestamp = 0;
    for (let i = digits; i < messageEnd; i++) timestamp = timestamp * 10 + (text.charCodeAt(i) - ZERO);
  }
  if (replyEnd <= replyStart) return undefined;
  let uuid: string;
  let reply: unknown;
  let flags: unknown;
  try {
    uuid = jsonStringValue(text, uuidAt, uuidEnd);
    reply = replyAt(text, replyStart, replyEnd, read);
    if (reply === undefined) {
      read.checked = false;
      reply = JSON.parse(text.slice(replyStart, replyEnd));
    }
    if (flagsAt >= 0) flags = JSON.parse(text.slice(flagsAt, end - 1));
  } catch {
    // Not JSON: the caller's `JSON.parse` of the whole text words it.
    return undefined;
  }
  const message = timestamp < 0 ? { type: 'assistant', uuid, message: reply } : { type: 'assistant', uuid, message: reply, timestamp };
  return flagsAt < 0 ? { type: 'model_message', message } : { type: 'model_message', message, concurrencySafe: flags };
}

function isDigit(code: number): boolean {
  return code >= ZERO && code <= NINE;
}
