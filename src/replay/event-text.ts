/**
 * The event of a logged line from its text, for `replay()`'s one pass (`replay.ts`): `JSON.parse` of the text, but
 * the few texts that nearly every turn logs alike are built without the parser: a context layer that changed
 * nothing, the end of a tool batch, no attachments. Those are most of a log's lines and the parser's cost for such
 * a short text is mostly the call itself.
 *
 * Invariant: the result is what `JSON.parse` gives for the same text: a fresh object of its own (nothing shared
 * between lines), deep-equal, its members in the same order. Any other spelling of those events (a space, another
 * member, an escape) goes through `JSON.parse`. Whether the event is valid is the caller's check, as for any other.
 */

const TOOLS_FINISHED = '{"type":"tools_finished"}';
const NO_ATTACHMENTS = '{"type":"attachments_collected","attachments":[]}';
const LAYER_RESULT_START = '{"type":"context_layer_result","layer":"';
const LAYER_RESULT_END = '","edits":[],"tokensFreed":0}';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;

/** The JSON value of text[start, end) (see the module comment); throws as `JSON.parse` does on text that is not JSON. */
export function parseEventText(text: string, start: number, end: number): unknown {
  const length = end - start;
  if (length === TOOLS_FINISHED.length && text.startsWith(TOOLS_FINISHED, start)) return { type: 'tools_finished' };
  if (length === NO_ATTACHMENTS.length && text.startsWith(NO_ATTACHMENTS, start)) return { type: 'attachments_collected', attachments: [] };
  if (length > LAYER_RESULT_START.length + LAYER_RESULT_END.length && text.startsWith(LAYER_RESULT_START, start) && text.startsWith(LAYER_RESULT_END, end - LAYER_RESULT_END.length)) {
    const layer = plainStringAt(text, start + LAYER_RESULT_START.length, end - LAYER_RESULT_END.length);
    if (layer !== null) return { type: 'context_layer_result', layer, edits: [], tokensFreed: 0 };
  }
  return JSON.parse(text.slice(start, end));
}

/** text[from, to) when it is the whole content of a JSON string without escapes (no quote, backslash or control). */
function plainStringAt(text: string, from: number, to: number): string | null {
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE || code === BACKSLASH || code < SPACE) return null;
  }
  return text.slice(from, to);
}
