/**
 * The state a run starts from (docs/loop.md §3): counters at their initial values, `turnCount` 1, no transition yet.
 * Pure: ids derive from the run id; the start time comes from the params.
 */
import type { LoopConfig } from '../config/config.ts';
import { emptyIteration, type MachineContext } from './machine-context.ts';
import { repairToolPairing } from '../messages/repair-tool-pairing.ts';
import type { Message } from '../messages/types.ts';
import { userMessage } from '../messages/message-factory.ts';
import { tokenCountWithEstimation } from '../rules/tokens.ts';
import type { LoopContext, LoopParams } from '../data/state.ts';

/** A resumed history starts at its last compact boundary (docs/loop.md §4.2). */
function messagesAfterCompactBoundary(messages: Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'system' && m.subtype === 'compact_boundary') return messages.slice(i);
  }
  return messages;
}

function withSystemContext(systemPrompt: string[] | undefined, systemContext: Record<string, string> | undefined): string[] {
  const entries = Object.entries(systemContext ?? {});
  const prompt = systemPrompt ?? [];
  return entries.length === 0 ? prompt : [...prompt, entries.map(([key, value]) => `${key}: ${value}`).join('\n')];
}

/** The user context as one meta message with a uuid fixed per run (docs/loop.md §2); null without one. */
export function userContextMessageOf(runId: string, userContext: Record<string, string> | undefined): Message | null {
  const entries = Object.entries(userContext ?? {});
  if (entries.length === 0) return null;
  return userMessage(`${runId}:context`, entries.map(([key, value]) => `# ${key}\n${value}`).join('\n\n'), true);
}

export function createInitialContext(params: LoopParams, config: LoopConfig): LoopContext {
  const runId = params.runId ?? config.sessionId;
  const { messages: initialMessages, ...rest } = params;
  // docs/loop.md §11: a history from outside is paired before any request (synthetic results, strays and repeats dropped).
  const { messages: repaired } = repairToolPairing(messagesAfterCompactBoundary(initialMessages), {
    syntheticUuid: (n) => `${runId}:repair${n}`,
  });
  const messages = repaired;
  // Set on the rest object (ours), not spread with it into a literal: V8 (Node 20) gives `{ ...rest, key }` with a key
  // `rest` lacks a new hidden class on every call, and every read of `params` then sees a shape of its own per run.
  rest.systemPrompt = withSystemContext(params.systemPrompt, params.systemContext);
  // The inner objects apart from the literal: a literal holding a literal is deep-copied by a runtime call
  // (`emptyIteration`, machine-context.ts), once per run.
  const tokenBudget = { continuationCount: 0, lastDeltaTokens: 0, lastGlobalTurnTokens: 0, startedAt: params.startedAt ?? 0 };
  const tokens = { reported: 0, estimatedSince: tokenCountWithEstimation(messages) };
  const toolUseContext = {};
  return {
    runId,
    seq: 0,
    params: rest,
    querySource: params.querySource ?? 'sdk',
    messages,
    historyRevision: 0,
    userContextMessage: userContextMessageOf(runId, params.userContext),
    autoCompactTracking: null,
    maxOutputTokensRecoveryCount: 0,
    hasAttemptedReactiveCompact: false,
    maxOutputTokensOverride: params.maxOutputTokensOverride ?? null,
    pendingToolUseSummary: null,
    stopHookActive: false,
    turnCount: 1,
    transition: null,
    tokenBudget,
    taskBudgetRemaining: null,
    currentModel: config.model,
    tokens,
    outputTokens: 0,
    modelCalls: 0,
    costUsd: 0,
    stopHookBlockingCount: 0,
    toolUseContext,
    lastUsage: null,
    iter: emptyIteration(),
    terminal: null,
  };
}

/**
 * The machine's context for one step: the run's context plus the config, built as one literal
 * of its final shape. Copying the run's context and then adding the field gave every step's context an extra
 * out-of-object property store and a shape of its own: the `step()` fold of the bench log was 1.3× slower. Like
 * `toLoopContext`, the annotation makes a missing or unknown field a compile error.
 */
export function toMachineContext(c: LoopContext, config: LoopConfig): MachineContext {
  const machineContext: MachineContext = {
    runId: c.runId,
    seq: c.seq,
    params: c.params,
    querySource: c.querySource,
    messages: c.messages,
    historyRevision: c.historyRevision,
    userContextMessage: c.userContextMessage,
    autoCompactTracking: c.autoCompactTracking,
    maxOutputTokensRecoveryCount: c.maxOutputTokensRecoveryCount,
    hasAttemptedReactiveCompact: c.hasAttemptedReactiveCompact,
    maxOutputTokensOverride: c.maxOutputTokensOverride,
    pendingToolUseSummary: c.pendingToolUseSummary,
    stopHookActive: c.stopHookActive,
    turnCount: c.turnCount,
    transition: c.transition,
    tokenBudget: c.tokenBudget,
    taskBudgetRemaining: c.taskBudgetRemaining,
    currentModel: c.currentModel,
    tokens: c.tokens,
    outputTokens: c.outputTokens,
    modelCalls: c.modelCalls,
    costUsd: c.costUsd,
    stopHookBlockingCount: c.stopHookBlockingCount,
    toolUseContext: c.toolUseContext,
    lastUsage: c.lastUsage,
    iter: c.iter,
    terminal: c.terminal,
    config,
  };
  return machineContext;
}

/**
 * The run's context out of the machine's (without the step's config): a shallow copy listing every field, one fixed
 * object shape, which V8 builds far faster than a spread or a rest pattern (those were a fifth of a memoized step).
 * The copy itself, not a call to it: every step makes one, mostly in V8's baseline tier, where a call costs. The
 * `LoopContext` annotation makes a missing or unknown field a compile error.
 */
export function toLoopContext(c: LoopContext): LoopContext {
  const copy: LoopContext = {
    runId: c.runId,
    seq: c.seq,
    params: c.params,
    querySource: c.querySource,
    messages: c.messages,
    historyRevision: c.historyRevision,
    userContextMessage: c.userContextMessage,
    autoCompactTracking: c.autoCompactTracking,
    maxOutputTokensRecoveryCount: c.maxOutputTokensRecoveryCount,
    hasAttemptedReactiveCompact: c.hasAttemptedReactiveCompact,
    maxOutputTokensOverride: c.maxOutputTokensOverride,
    pendingToolUseSummary: c.pendingToolUseSummary,
    stopHookActive: c.stopHookActive,
    turnCount: c.turnCount,
    transition: c.transition,
    tokenBudget: c.tokenBudget,
    taskBudgetRemaining: c.taskBudgetRemaining,
    currentModel: c.currentModel,
    tokens: c.tokens,
    outputTokens: c.outputTokens,
    modelCalls: c.modelCalls,
    costUsd: c.costUsd,
    stopHookBlockingCount: c.stopHookBlockingCount,
    toolUseContext: c.toolUseContext,
    lastUsage: c.lastUsage,
    iter: c.iter,
    terminal: c.terminal,
  };
  return copy;
}
