/**
 * The API-side task budget across compactions (SPEC §6 "Task budget"). This is a pure function.
 *
 * Invariant: the remaining budget never goes below 0, and before any compaction it starts from the total.
 */

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
