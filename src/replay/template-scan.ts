/**
 * What the template readers of log text (`event-text.ts`, `tool-result-text.ts`, `model-message-text.ts`,
 * `reply-text.ts`) share: a sticky pattern tried at an offset, and the usage of a model call with two plain counts.
 * One place for each, so the readers agree on them.
 */

// Character codes are each reader's own constants, not imports, so no hot loop reads a binding of another module.
const COMMA = 0x2c;
const ZERO = 0x30;
const CLOSE_BRACE = 0x7d;

/**
 * What a reader says of the event it built, for a caller that validates events (`replay.ts`): `checked` is true
 * when every part the schema constrains was built by the reader from text it matched (or parsed from a span that
 * can only hold what the schema asks), so the event has the schema's shape by construction (`isLoopEvent` would
 * answer yes: a test holds the two to that).
 * One object per caller, written by the reader on every call.
 */
export interface EventRead {
  checked: boolean;
}

/** Where the sticky `pattern` ends when it matches at `at`; -1 when it does not. Its `lastIndex` is set right before use. */
export function fixedEnd(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/** Whether the sticky `pattern` matches text[start, end) whole. */
export function covers(pattern: RegExp, text: string, start: number, end: number): boolean {
  pattern.lastIndex = start;
  return pattern.test(text) && pattern.lastIndex === end;
}

/**
 * The usage `{"input_tokens":N,"output_tokens":N}` at text[at], which a caller's pattern already matched with both
 * counts plain integers of at most 15 digits (exact as doubles). Built as one literal, in one place: the very shape
 * `JSON.parse` gives this text (V8 shares the two), so every reader of usage sees one shape.
 */
export function plainUsageAt(text: string, at: number): { input_tokens: number; output_tokens: number } {
  let i = at + INPUT_TOKENS_AT;
  let input = 0;
  for (let code = text.charCodeAt(i); code !== COMMA; code = text.charCodeAt(++i)) input = input * 10 + (code - ZERO);
  i += TO_OUTPUT_TOKENS;
  let output = 0;
  for (let code = text.charCodeAt(i); code !== CLOSE_BRACE; code = text.charCodeAt(++i)) output = output * 10 + (code - ZERO);
  return { input_tokens: input, output_tokens: output };
}

const INPUT_TOKENS_AT = '{"input_tokens":'.length;
const TO_OUTPUT_TOKENS = ',"output_tokens":'.length;
