/**
 * Read-only questions about the context, shared by guards and actions. Pure.
 */
import type { AssistantMessage, Message } from '../messages/types.ts';
import { worstCallCostUsd } from '../rules/call-cost.ts';
import { decideTokenBudget, type TokenBudgetDecision } from '../rules/token-budget.ts';
import { autocompactThreshold, contextThresholds, defaultMaxOutputTokens } from '../rules/thresholds.ts';
import type { MachineContext } from './machine-context.ts';

/** Forked compaction and session-memory runs: never autocompact, never blocked (docs/loop.md §9.7). */
export function isCompactSource(querySource: string): boolean {
  return querySource === 'compact' || querySource === 'session_memory';
}

/**
 * Time-based microcompact clears results on the main thread only, never in an SDK run or an agent (Claude Code
 * 2.1.88 `services/compact/microCompact.ts:243-251, 422-431`). Decided by the layer's runner, not the chart: the
 * layer is still asked for, so session logs recorded before this rule replay unchanged.
 */
export function timeBasedMicrocompactApplies(querySource: string): boolean {
  return querySource.startsWith('repl_main_thread');
}

/**
 * The per-message tool-result budget needs a replacement state that interactive runs and their agents have, never
 * an SDK run (Claude Code 2.1.88 `query.ts:369-392`, `QueryEngine.ts:427`: `querySource: 'sdk'`).
 */
export function perMessageBudgetApplies(querySource: string): boolean {
  return querySource !== 'sdk';
}

export function isSubagent(querySource: string): boolean {
  return querySource.startsWith('agent:');
}

/** The context size this iteration: running count minus what the pipeline freed (docs/loop.md §6). */
export function currentTokenCount(context: MachineContext): number {
  return Math.max(0, context.tokens.reported + context.tokens.estimatedSince - context.iter.tokensFreed);
}

export function thresholdsFor(context: MachineContext) {
  return contextThresholds(context.currentModel, context.config);
}

/** `thresholdsFor(context).autocompact`, without the rest of the table (every turn asks). */
export function autocompactThresholdFor(context: MachineContext): number {
  return autocompactThreshold(context.currentModel, context.config);
}

/**
 * `max_tokens` of the next request: the state's override, else the default. The caller's override only seeds the
 * state's for the first iteration (docs/loop.md §2); every Continue clears it.
 */
export function requestMaxTokens(context: MachineContext): number {
  return context.maxOutputTokensOverride ?? defaultMaxOutputTokens(context.currentModel, context.config);
}

export function withheldKind(context: MachineContext): string | null {
  const withheld = context.iter.withheld;
  return withheld?.type === 'assistant' ? (withheld.apiError?.kind ?? null) : null;
}

export function lastAssistantMessage(context: MachineContext): AssistantMessage | null {
  const list = context.iter.assistantMessages;
  const last: Message | undefined = list[list.length - 1];
  return last?.type === 'assistant' ? last : null;
}

export function tokenBudgetDecision(context: MachineContext): TokenBudgetDecision {
  return decideTokenBudget({
    budget: context.config.features.tokenBudget ? context.params.tokenBudget : undefined,
    isSubagent: isSubagent(context.querySource),
    turnTokens: context.outputTokens,
    tracker: context.tokenBudget,
    completionRatio: context.config.tokenBudgetCompletionRatio,
    diminishingDelta: context.config.tokenBudgetDiminishingDelta,
  });
}

/** docs/loop.md §9.10: no model call is left under `limits.maxModelCalls`. */
export function modelCallsExhausted(context: MachineContext): boolean {
  return context.modelCalls >= context.config.limits.maxModelCalls;
}

/**
 * Extension `maxBudgetUsd`: the next call could take the spend past `limits.maxCostUsd` (0 = off). The worst call
 * is the bounds' figure (docs/bounds.md "Spend cap"), so the main loop's spend never exceeds the cap.
 */
export function spendCapExhausted(context: MachineContext): boolean {
  const cap = context.config.limits.maxCostUsd;
  return cap > 0 && context.costUsd + worstCallCostUsd(context.config, context.params) > cap;
}

/** docs/loop.md §2: `maxTurns` 0 or absent means no limit. */
export function nextTurnExceedsMaxTurns(context: MachineContext): boolean {
  const maxTurns = context.params.maxTurns;
  return maxTurns !== undefined && maxTurns !== 0 && context.turnCount + 1 > maxTurns;
}
