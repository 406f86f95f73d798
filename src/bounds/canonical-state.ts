/**
 * The explorer's state key: a canonical projection of a reducer state (plus what the loop waits for and the path
 * counters the invariants read). Two states with one key answer every future event alike.
 *
 * What is kept: the chart's state value and every field a guard reads (counters, flags, the withheld error's
 * kind, the last message's error, the tool_uses seen and answered, the token-budget tracker). What is dropped:
 * message contents and ids (no guard reads them), and exact token counts, kept only as the threshold they reach
 * (below autocompact, autocompact, blocking): the abstract answers report either a small usage or a full
 * context, so no sum of small ones crosses a threshold within the caps the explorer is run with.
 */
import type { LoopConfig } from '../config/config.ts';
import type { LoopState } from '../data/state.ts';
import { contextThresholds } from '../rules/thresholds.ts';
import type { WaitState } from './waiting.ts';

export interface PathCounters {
  aborted: boolean;
  failedAutocompactsInRow: number;
  /** Continues taken so far, by reason. */
  continues: Partial<Record<string, number>>;
}

function tokenLevel(state: LoopState, config: LoopConfig | undefined): number {
  const c = state.context;
  const tokens = Math.max(0, c.tokens.reported + c.tokens.estimatedSince - c.iter.tokensFreed);
  if (!config) return tokens;
  const t = contextThresholds(c.currentModel, config);
  return tokens >= t.blocking ? 2 : tokens >= t.autocompact ? 1 : 0;
}

export function canonicalKey(state: LoopState, wait: WaitState, counters: PathCounters, config?: LoopConfig): string {
  const { waiting, executor } = wait;
  const c = state.context;
  const i = c.iter;
  const withheld = i.withheld?.type === 'assistant' ? (i.withheld.apiError?.kind ?? 'none') : null;
  const last = i.assistantMessages[i.assistantMessages.length - 1];
  const lastError = last?.type === 'assistant' ? (last.apiError?.kind ?? null) : null;
  const projection = [
    state.value,
    state.status,
    c.terminal?.reason ?? null,
    waiting?.kind ?? null,
    waiting?.kind === 'tools' ? waiting.toolUses.length : waiting?.kind === 'layer' ? waiting.layer : null,
    executor.length,
    c.turnCount,
    c.modelCalls,
    c.costUsd,
    c.stopHookBlockingCount,
    c.maxOutputTokensRecoveryCount,
    c.hasAttemptedReactiveCompact,
    c.maxOutputTokensOverride,
    c.transition?.reason ?? null,
    c.currentModel,
    c.autoCompactTracking ? [c.autoCompactTracking.compacted, c.autoCompactTracking.turnCounter, c.autoCompactTracking.consecutiveFailures] : null,
    tokenLevel(state, config),
    c.outputTokens,
    [c.tokenBudget.continuationCount, c.tokenBudget.lastDeltaTokens, c.tokenBudget.lastGlobalTurnTokens],
    c.taskBudgetRemaining,
    c.pendingToolUseSummary ? c.pendingToolUseSummary.summary !== null : null,
    c.stopHookActive,
    [i.needsFollowUp, withheld, lastError, i.abortReason, i.compacted, i.streamingToolsStarted, i.preventContinuation],
    [i.toolUses.length, i.answeredToolUseIds.length, i.stopHookOutcome ? [i.stopHookOutcome.blockingErrors.length, i.stopHookOutcome.preventContinuation] : null, i.collapseCommitted],
    [counters.aborted, counters.failedAutocompactsInRow, Object.entries(counters.continues).sort()],
  ];
  return JSON.stringify(projection);
}
