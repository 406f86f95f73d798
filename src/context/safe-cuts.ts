/**
 * Where a history may be cut without breaking it. Shared by snip, context collapse and compaction.
 *
 * Invariants (docs/loop.md §1 "Pairing", §9.9, §10):
 * - A cut never separates a `tool_use` from its `tool_result`: every pair lies wholly on one side.
 * - A cut never splits the blocks of one API response (assistant messages sharing `message.id`), so thinking
 *   blocks stay with the text/tool_use blocks they belong to.
 *
 * Pure functions, O(n) in the messages they are given.
 */
import type { Message, ToolResultBlock, UserMessage } from '../messages/types.ts';

/** The tool_use ids an assistant message asks for. */
export function toolUseIdsOf(message: Message): string[] {
  if (message.type !== 'assistant') return [];
  const ids: string[] = [];
  for (const block of message.message.content) if (block.type === 'tool_use') ids.push(block.id);
  return ids;
}

/** The tool_result blocks a user message carries. */
export function toolResultsOf(message: Message): ToolResultBlock[] {
  if (message.type !== 'user' || typeof message.message.content === 'string') return [];
  const results: ToolResultBlock[] = [];
  for (const block of message.message.content) if (block.type === 'tool_result') results.push(block);
  return results;
}

/** A user message typed by a person (not a tool result, not written by the engine). */
export function isHumanPrompt(message: Message): message is UserMessage {
  return message.type === 'user' && !message.isMeta && toolResultsOf(message).length === 0;
}

/**
 * `safe[i]` is true when the history may be cut just before index `i` (`safe[0]` and `safe[n]` are always true):
 * no tool_use/tool_result pair and no API response straddles the cut.
 */
export function safeCutPoints(messages: readonly Message[]): boolean[] {
  const n = messages.length;
  // open[i] > 0: some pair or response spans the gap before i. Built as a difference array over gaps.
  const delta = new Array<number>(n + 1).fill(0);
  const span = (from: number, to: number) => {
    // Gaps strictly inside [from, to] are the ones before from+1 .. to.
    if (to <= from) return;
    delta[from + 1] += 1;
    if (to + 1 <= n) delta[to + 1] -= 1;
  };
  const useIndex = new Map<string, number>();
  const firstOfResponse = new Map<string, number>();
  messages.forEach((message, i) => {
    if (message.type === 'assistant') {
      const first = firstOfResponse.get(message.message.id);
      if (first === undefined) firstOfResponse.set(message.message.id, i);
      else span(first, i);
      for (const id of toolUseIdsOf(message)) useIndex.set(id, i);
    }
    for (const result of toolResultsOf(message)) {
      const at = useIndex.get(result.tool_use_id);
      if (at !== undefined) span(at, i);
    }
  });
  const safe = new Array<boolean>(n + 1);
  let open = 0;
  for (let i = 0; i <= n; i++) {
    open += delta[i];
    safe[i] = i === 0 || i === n || open === 0;
  }
  return safe;
}

/** Index of the first user message, or -1. It is never dropped (it states the task). */
export function firstUserIndex(messages: readonly Message[]): number {
  return messages.findIndex((m) => m.type === 'user');
}
