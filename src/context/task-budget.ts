/** The task-budget arithmetic lives with the reducer, which applies it on every compaction (docs/loop.md §6). */
export { nextTaskBudgetRemaining } from '../rules/task-budget.ts';
