/**
 * The API-side task budget across compactions (docs/loop.md §6 "Task budget"). Pure.
 *
 * Invariants: the remaining budget never goes below 0; before any compaction it starts from the total; what a
 * compaction spends is the final context window of the last response before it: `input_tokens + output_tokens`
 * of its usage, cache tokens not counted (as the original does).
 */
import type { Message } from '../messages/types.ts';

/**
 * The task budget left after a compaction: what remained (or the total, before any compaction) minus the context
 * tokens the compaction summarised away.
 *
 * @example
 * nextTaskBudgetRemaining(undefined, 500_000, 170_000) // 330_000
 * nextTaskBudgetRemaining(100_000, 500_000, 170_000) // 0
 */
export function nextTaskBudgetRemaining(
  remaining: number | null | undefined,
  total: number,
  contextTokensBeforeCompaction: number,
): number {
  return Math.max(0, (remaining ?? total) - contextTokensBeforeCompaction);
}

/** `input_tokens + output_tokens` of the last response in `messages` that reported usage; 0 when none did. */
export function finalContextTokensOfLastResponse(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'assistant' && !m.apiError && m.message.usage) return m.message.usage.input_tokens + m.message.usage.output_tokens;
  }
  return 0;
}
