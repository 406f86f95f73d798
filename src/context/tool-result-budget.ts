/**
 * Layer 0 of the context pipeline: the tool-result budget (docs/loop.md §6). This is a pure function: it decides, the
 * caller stores the full texts (`toStore`) and applies the edits.
 *
 * Invariants:
 * - Only the FRESH tool results are looked at: those after the first block of the last API response (results of
 *   earlier responses are never revisited). They form one API message (the API merges consecutive user messages),
 *   so the per-message budget applies to all of them together. The cost of a step follows the last tool batch,
 *   never the history.
 * - A result longer than `perResultChars` is always replaced (the original does this when the tool answers); then,
 *   while the other fresh results together exceed `perMessageChars`, the largest remaining one is replaced (ties:
 *   the earlier one first), each counted at its FULL size, as the original selects (Claude Code 2.1.88
 *   `utils/toolResultStorage.ts:670-692`): no more results are replaced than that count says.
 * - What the count leaves out, as the original's (`toolResultStorage.ts:557-580, 837-847`): results already
 *   replaced, results of exempt tools and results carrying images or documents.
 * - A replacement is a preview: the first `previewChars` characters, then one line pointing at the stored text.
 * - Decisions are frozen per tool_use id: an id found in `decisions` gets exactly that content again (byte for
 *   byte), is never stored twice and never re-decided, so the prompt-cache prefix never changes.
 * - Results of exempt tools (unbounded result size) and results carrying images or documents are never replaced.
 */
import type { ToolResultBudgetConfig } from '../config/config.ts';
import type { Message, ToolResultBlock } from '../messages/types.ts';
import type { MessageEdit } from '../data/events.ts';
import { CHARS_PER_TOKEN } from '../rules/tokens.ts';
import type { ContextLayerOutcome } from '../data/context-layers.ts';
import { toolResultsOf } from './safe-cuts.ts';

/** Replacement content per tool_use id, as decided earlier (kept by the caller for the whole session). */
export type ToolResultDecisions = Readonly<Record<string, string>>;

export interface ToolResultBudgetInput {
  messages: readonly Message[];
  config: ToolResultBudgetConfig;
  decisions: ToolResultDecisions;
  /** Tools whose results are never replaced. */
  exemptTools?: readonly string[];
  /**
   * Each tool's declared `maxResultSizeChars`: a result is replaced on its own above min(declared, perResultChars),
   * and a tool declaring an unbounded size (Infinity) is exempt, as the original's persistence threshold
   * (Claude Code 2.1.88 `utils/toolResultStorage.ts:55-78`).
   */
  maxResultChars?: Readonly<Record<string, number>>;
  /** False: only the per-result limits apply (an SDK run has no per-message budget). Default true. */
  perMessage?: boolean;
  /** Where the full text of a result will be stored; must be a pure function of the id. */
  pointerFor: (toolUseId: string) => string;
}

export interface ToolResultBudgetOutcome extends ContextLayerOutcome {
  /** Full texts the caller must persist (at `pointerFor(toolUseId)`) before the preview is relied upon. */
  toStore: Array<{ toolUseId: string; content: string }>;
  /** Decisions made in this call (merge them into `decisions`). */
  newDecisions: Record<string, string>;
}

interface FreshResult {
  toolUseId: string;
  /** Above this many characters the result is replaced on its own. */
  limit: number;
  text: string | null;
  chars: number;
  order: number;
}

/** The text of a result, or null when it carries media (those are never replaced). */
function resultText(block: ToolResultBlock): string | null {
  if (typeof block.content === 'string') return block.content;
  let text = '';
  for (const part of block.content) {
    if (part.type !== 'text') return null;
    text += part.text;
  }
  return text;
}

/**
 * The last API response: the index of its first block and its tool names by tool_use id. Results that arrived
 * between its blocks (streaming tool execution) and after them are the fresh ones. Walks back over that response
 * only (and the results just before it), never the whole history.
 */
function lastResponse(messages: readonly Message[]): { first: number; names: Map<string, string> } {
  const names = new Map<string, string>();
  let responseId: string | null = null;
  let first = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.type !== 'assistant') continue;
    if (responseId !== null && message.message.id !== responseId) break;
    responseId = message.message.id;
    first = i;
    for (const block of message.message.content) if (block.type === 'tool_use') names.set(block.id, block.name);
  }
  return { first, names };
}

/**
 * The preview that stands for a stored result: its opening characters and a pointer to the rest.
 * Never cuts a UTF-16 surrogate pair in half.
 */
export function previewToolResult(text: string, pointer: string, previewChars: number): string {
  let end = Math.min(previewChars, text.length);
  const code = text.charCodeAt(end - 1);
  if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return (
    `${text.slice(0, end)}\n\n` +
    `[Result shortened to its first ${end} of ${text.length} characters. The full text is stored at ${pointer}]`
  );
}

const tokensOf = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

/**
 * Above how many characters a result of tool `name` is replaced on its own: min(declared, perResultChars), or null
 * for an exempt tool (listed in `exemptTools`, or declaring an unbounded size). Looked up per result, not gathered
 * into a set per call: this layer runs on every turn.
 */
function resultLimit(input: ToolResultBudgetInput, name: string | undefined): number | null {
  const { perResultChars } = input.config;
  if (name === undefined) return perResultChars;
  if (input.exemptTools?.includes(name)) return null;
  const declared = input.maxResultChars;
  if (declared === undefined || !Object.hasOwn(declared, name)) return perResultChars;
  return Number.isFinite(declared[name]) ? Math.min(declared[name], perResultChars) : null;
}

/**
 * True when no result is over its own limit and `total` is within `perMessageChars`: nothing is replaced. Written as
 * the negation of the loops' own `<=` tests, so a limit that is NaN or undefined (a config that sets one to
 * undefined) takes the loops as before.
 */
function withinBudget(candidates: readonly FreshResult[], total: number, perMessageChars: number): boolean {
  if (!(total <= perMessageChars)) return false;
  for (const result of candidates) if (!(result.chars <= result.limit)) return false;
  return true;
}

/**
 * Applies the tool-result budget to the fresh results of a history.
 *
 * @example
 * const out = budgetToolResults({ messages, config: DEFAULT_CONFIG.toolResultBudget, decisions: {},
 *   pointerFor: (id) => `.turnloop/sessions/s/tool-results/${id}.txt` });
 * // out.edits: replace_tool_result for each oversized fresh result; out.toStore: their full texts
 */
export function budgetToolResults(input: ToolResultBudgetInput): ToolResultBudgetOutcome {
  const { messages, config, decisions } = input;
  const { first, names } = lastResponse(messages);

  const edits: MessageEdit[] = [];
  const toStore: ToolResultBudgetOutcome['toStore'] = [];
  const newDecisions: Record<string, string> = {};
  let tokensFreed = 0;
  let total = 0;
  const candidates: FreshResult[] = [];

  for (let i = first + 1; i < messages.length; i++) {
    for (const block of toolResultsOf(messages[i])) {
      const id = block.tool_use_id;
      const text = resultText(block);
      const frozen = Object.hasOwn(decisions, id) ? decisions[id] : undefined;
      if (frozen !== undefined) {
        if (block.content !== frozen) {
          edits.push({ op: 'replace_tool_result', toolUseId: id, content: frozen });
          if (text !== null) tokensFreed += Math.max(0, tokensOf(text.length) - tokensOf(frozen.length));
        }
        continue;
      }
      if (text === null) continue;
      const limit = resultLimit(input, names.get(id));
      if (limit === null) continue;
      const chars = text.length;
      total += chars;
      candidates.push({ toolUseId: id, text, chars, order: candidates.length, limit });
    }
  }

  // The common case, every fresh result within its limit and the message within its budget: nothing to replace,
  // so no sorting (this layer runs on every turn). The same outcome as the loops below would give.
  const outcome: ToolResultBudgetOutcome = { edits, tokensFreed, toStore, newDecisions };
  if (!withinBudget(candidates, total, input.perMessage === false ? Infinity : config.perMessageChars)) replaceOversized(input, candidates, total, outcome);
  outcome.tokensFreed = Math.max(0, outcome.tokensFreed);
  return outcome;
}

/**
 * Replaces the results over their own limit, then the largest others while the message is over budget. Apart from
 * `budgetToolResults`, which runs on every turn: a closure there (`replace`) made it keep its locals in a context
 * object allocated on every call, read slot by slot, though almost no call replaces anything.
 */
function replaceOversized(input: ToolResultBudgetInput, candidates: readonly FreshResult[], total: number, outcome: ToolResultBudgetOutcome): void {
  const { config, pointerFor } = input;
  const replace = (result: FreshResult) => {
    const pointer = pointerFor(result.toolUseId);
    const preview = previewToolResult(result.text!, pointer, config.previewChars);
    if (preview.length >= result.chars) return; // Too small to be worth a preview.
    outcome.edits.push({ op: 'replace_tool_result', toolUseId: result.toolUseId, content: preview });
    outcome.toStore.push({ toolUseId: result.toolUseId, content: result.text! });
    outcome.newDecisions[result.toolUseId] = preview;
    outcome.tokensFreed += tokensOf(result.chars) - tokensOf(preview.length);
  };

  const bySize = [...candidates].sort((a, b) => b.chars - a.chars || a.order - b.order);
  const remaining: FreshResult[] = [];
  for (const result of bySize) {
    if (result.chars <= result.limit) {
      remaining.push(result);
      continue;
    }
    replace(result);
    total -= result.chars;
  }
  for (const result of input.perMessage === false ? [] : remaining) {
    if (total <= config.perMessageChars) break;
    replace(result);
    total -= result.chars; // its full size, not the size it shrinks by (toolResultStorage.ts:683-690)
  }
}
