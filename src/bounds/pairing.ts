/**
 * docs/loop.md §9.9 as the explorer checks it: every tool_use sent to the model is answered by exactly one
 * tool_result after it. Pure.
 */
import type { Message } from '../messages/types.ts';

/** The tool_use ids of `messages` that do not have exactly one tool_result after them. */
export function unpairedToolUses(messages: readonly Message[]): string[] {
  const uses: string[] = [];
  const results = new Map<string, number>();
  for (const message of messages) {
    if (message.type === 'assistant') {
      for (const block of message.message.content) if (block.type === 'tool_use') uses.push(block.id);
    } else if (message.type === 'user' && Array.isArray(message.message.content)) {
      for (const block of message.message.content) {
        if (block.type === 'tool_result') results.set(block.tool_use_id, (results.get(block.tool_use_id) ?? 0) + 1);
      }
    }
  }
  return uses.filter((id) => results.get(id) !== 1);
}
