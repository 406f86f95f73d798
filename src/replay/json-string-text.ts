/**
 * One JSON string read out of a larger text at an offset, for the template readers of `event-text.ts`: where it
 * ends, and its value exactly as `JSON.parse` gives it.
 *
 * Invariants:
 * - `jsonStringEnd` finds where a string ends as JSON's grammar has it (a quote after an even run of backslashes)
 *   and says whether it is plain (no quote, backslash or control character inside); a plain string is checked
 *   whole there, one with a backslash is checked by `jsonStringValue`.
 * - `jsonStringValue` is `JSON.parse` of the quoted text: a string with an escape is decoded by `JSON.parse` of
 *   its own slice (the decoding and its checks are then JSON's own: it throws as `JSON.parse` of the whole text
 *   would), a plain one is cut out of the text.
 * - The value never holds on to the whole text: V8 cuts a string of 13 or more characters as a slice that keeps its
 *   parent (the whole log) alive, so such a string is copied through `JSON.parse` of its slice (a fresh string, as
 *   the parser of the whole event would have given). A shorter cut is a copy already, in the text's own encoding.
 * - The text is Latin-1 (`isLatin1Text`). Cut out of a text that holds any character past U+00FF (V8 then stores
 *   all of it two bytes a character), even `tool_use` would be a two-byte string, which V8 compares with the
 *   one-byte names in the code, and looks up as a key, the slow way; parsing every short string instead (for the
 *   one-byte, interned strings the parser gives) cost more than the readers save (docs/benchmarks.md, round 15),
 *   so `parseEventText` reads such a text with `JSON.parse`.
 */

const BACKSLASH = 0x5c;
const QUOTE = 0x22;

/** A plain string: no quote, backslash or control character inside. */
const PLAIN = /"[^"\\\u0000-\u001f]*"/y;
/** Below this length V8 copies a cut string instead of keeping a slice of its parent (`SlicedString::kMinLength`). */
const SLICE_MIN_LENGTH = 13;

/**
 * Where the JSON string whose opening quote is text[at] ends (the offset after its closing quote), negated when it
 * is not plain (its characters are then checked by `jsonStringValue`); 0 when text[at] is no quote or no closing
 * quote follows. The closing quote is found by `indexOf`: a tool's output can run to many kilobytes, which a
 * regular expression walking JSON's escapes read at a fraction of the speed.
 */
export function jsonStringEnd(text: string, at: number): number {
  PLAIN.lastIndex = at;
  if (PLAIN.test(text)) return PLAIN.lastIndex;
  if (text.charCodeAt(at) !== QUOTE) return 0;
  for (let quote = text.indexOf('"', at + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslash = quote - 1;
    while (text.charCodeAt(backslash) === BACKSLASH) backslash -= 1;
    if ((quote - backslash) % 2 === 1) return -(quote + 1);
  }
  return 0;
}

/**
 * The value of the JSON string text[at, |end|), text[at] its opening quote: `end` as `jsonStringEnd` gave it (not
 * 0), or negated when the span was found otherwise (then it is checked to be exactly one JSON string). Throws as
 * `JSON.parse` does when it is not (a raw control character, an unknown escape, more than one value). `text` is
 * Latin-1 (see the module comment).
 */
export function jsonStringValue(text: string, at: number, end: number): string {
  if (end > 0 && end - at - 2 < SLICE_MIN_LENGTH) return text.slice(at + 1, end - 1);
  const to = end < 0 ? -end : end;
  if (to - at - 2 < SLICE_MIN_LENGTH) {
    PLAIN.lastIndex = at;
    if (PLAIN.test(text) && PLAIN.lastIndex === to) return text.slice(at + 1, to - 1);
  }
  // The span starts with a quote: what parses is one string (anything after it would be no JSON).
  return JSON.parse(text.slice(at, to)) as string;
}

/** Not Latin-1. On a one-byte text the test returns at once (irregexp sees that no character can match). */
const WIDE = /[^\u0000-\u00ff]/;

/** Whether `text` holds only characters up to U+00FF (then V8 stores it, and every cut of it, one byte a character). */
export function isLatin1Text(text: string): boolean {
  return !WIDE.test(text);
}

/** Whether text[a, aEnd) and text[b, bEnd) are the same characters (a tool-use id written two or three times). */
export function sameSpan(text: string, a: number, aEnd: number, b: number, bEnd: number): boolean {
  if (aEnd - a !== bEnd - b) return false;
  for (let i = 0; i < aEnd - a; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}
