/**
 * Layer 2 of the context pipeline: time-based microcompact (docs/loop.md §6). This is a pure function; time is passed in.
 *
 * Invariants:
 * - Runs when `now - lastAssistantAt >= idleGapMs` (by then the prompt cache has expired, so rewriting old
 *   results costs no cache); a gap threshold of 0 clears before every request. Without a known `lastAssistantAt`
 *   it does nothing. (Original, Claude Code 2.1.88: `services/compact/microCompact.ts:438-441`, skipped only when
 *   the gap is below the threshold.)
 * - Only results of tools named in `compactableTools` are touched, matched by tool_use id; the `keepRecent` most
 *   recent of them stay verbatim (at least 1, `microCompact.ts:456-460`); older ones become `CLEARED_TOOL_RESULT`.
 *   Clearing is idempotent.
 * - Only `tool_result` content is edited (`replace_tool_result`), so assistant messages — and their thinking blocks
 *   — are never touched, and pairing is unchanged.
 *
 * How a message's time is known: the interpreter passes `lastAssistantAt` (e.g. from its clock when the last
 * model reply finished). `lastAssistantTimestamp` reads an optional numeric `timestamp` field (ms) if a producer
 * stamps messages with one.
 */
import type { MicrocompactConfig } from '../config/config.ts';
import type { Message, ToolResultBlock } from '../messages/types.ts';
import type { MessageEdit } from '../data/events.ts';
import { CHARS_PER_TOKEN } from '../rules/tokens.ts';
import type { ContextLayerOutcome } from '../data/context-layers.ts';
import { toolResultsOf } from './safe-cuts.ts';

/** What a cleared tool result says instead of its old content. */
export const CLEARED_TOOL_RESULT = '[Old tool result cleared to save context]';

export interface MicrocompactInput {
  messages: readonly Message[];
  now: number;
  /** When the last assistant message arrived (ms since epoch). */
  lastAssistantAt: number | undefined;
  config: MicrocompactConfig;
}

/** The optional `timestamp` (ms) of the last assistant message, if its producer stamped one. */
export function lastAssistantTimestamp(messages: readonly Message[]): number | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.type !== 'assistant') continue;
    const stamp = (message as { timestamp?: unknown }).timestamp;
    return typeof stamp === 'number' && Number.isFinite(stamp) ? stamp : undefined;
  }
  return undefined;
}

function resultChars(block: ToolResultBlock): number {
  if (typeof block.content === 'string') return block.content.length;
  let chars = 0;
  for (const part of block.content) chars += part.type === 'text' ? part.text.length : 2_000 * CHARS_PER_TOKEN;
  return chars;
}

/**
 * Clears old compactable tool results after a long idle gap.
 *
 * @example
 * microcompact({ messages, now: t0 + 2 * HOUR, lastAssistantAt: t0, config: DEFAULT_CONFIG.microcompact })
 * // all but the 5 latest Read/Bash/... results become CLEARED_TOOL_RESULT
 */
export function microcompact(input: MicrocompactInput): ContextLayerOutcome {
  const { messages, now, lastAssistantAt, config } = input;
  if (lastAssistantAt === undefined || now - lastAssistantAt < config.idleGapMs) return { edits: [], tokensFreed: 0 };

  const compactable = new Set(config.compactableTools);
  const compactableIds = new Set<string>();
  const results: ToolResultBlock[] = [];
  for (const message of messages) {
    if (message.type === 'assistant') {
      for (const block of message.message.content) {
        if (block.type === 'tool_use' && compactable.has(block.name)) compactableIds.add(block.id);
      }
    }
    for (const block of toolResultsOf(message)) if (compactableIds.has(block.tool_use_id)) results.push(block);
  }

  // Keeping none would leave the model no working context at all.
  const clearUpTo = Math.max(0, results.length - Math.max(1, config.keepRecent));
  const edits: MessageEdit[] = [];
  let freedChars = 0;
  for (const block of results.slice(0, clearUpTo)) {
    if (block.content === CLEARED_TOOL_RESULT) continue;
    edits.push({ op: 'replace_tool_result', toolUseId: block.tool_use_id, content: CLEARED_TOOL_RESULT });
    freedChars += Math.max(0, resultChars(block) - CLEARED_TOOL_RESULT.length);
  }
  return { edits, tokensFreed: Math.floor(freedChars / CHARS_PER_TOKEN) };
}
