/**
 * The token-budget decision (docs/loop.md §8): keep going while the run is below 90 % of its output-token budget and
 * not producing diminishing returns. Pure.
 */
import type { TokenBudgetTracker } from '../data/state.ts';

export type TokenBudgetDecision =
  | { action: 'continue'; pct: number; turnTokens: number; budget: number; tracker: TokenBudgetTracker }
  | { action: 'stop'; report: boolean; diminishing: boolean; pct: number };

export interface TokenBudgetInput {
  budget: number | undefined;
  isSubagent: boolean;
  turnTokens: number;
  tracker: TokenBudgetTracker;
  completionRatio: number;
  diminishingDelta: number;
}

export function decideTokenBudget(input: TokenBudgetInput): TokenBudgetDecision {
  const { budget, tracker, turnTokens } = input;
  if (input.isSubagent || budget === undefined || budget <= 0) {
    return { action: 'stop', report: false, diminishing: false, pct: 0 };
  }
  const pct = Math.round((turnTokens / budget) * 100);
  const delta = turnTokens - tracker.lastGlobalTurnTokens;
  const diminishing =
    tracker.continuationCount >= 3 && delta < input.diminishingDelta && tracker.lastDeltaTokens < input.diminishingDelta;
  if (!diminishing && turnTokens < input.completionRatio * budget) {
    return {
      action: 'continue',
      pct,
      turnTokens,
      budget,
      tracker: {
        ...tracker,
        continuationCount: tracker.continuationCount + 1,
        lastDeltaTokens: delta,
        lastGlobalTurnTokens: turnTokens,
      },
    };
  }
  return { action: 'stop', report: tracker.continuationCount > 0 || diminishing, diminishing, pct };
}
