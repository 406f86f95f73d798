/**
 * The seven Continue transitions and their state writes, exactly as the table of docs/loop.md §5. One action per
 * reason; each sets `transition` so the next iteration knows how it began.
 *
 * Writes not listed in an action are "keep". "none" for override/summary/stopHookActive means null/null/false.
 */
import type { Message } from '../../messages/types.ts';
import type { EventOf } from '../../data/events.ts';
import { applyEdits } from '../../rules/edits.ts';
import { recoveryPrompt, stopHookFeedback, tokenBudgetNudge, userMessage } from '../../messages/message-factory.ts';
import { estimateTokens } from '../../rules/tokens.ts';
import { openOutbox, replaceHistory, type ActionFn, type ContextPatch, type MachineContext, type ScratchContext, UNCHANGED } from '../machine-context.ts';
import { tokenBudgetDecision } from '../queries.ts';
import { emitStopHookSummary } from './exit-ladder-actions.ts';
import { compactedHistory } from './pipeline-actions.ts';

const CLEARED = { maxOutputTokensOverride: null, pendingToolUseSummary: null, stopHookActive: false } as const;

/**
 * base + this iteration's assistant messages + `appended`; only `appended` is estimated (usage covers the rest).
 * An append: `historyRevision` stays.
 */
function extendHistory(context: MachineContext, appended: Message[]): ContextPatch {
  // The inner literal apart: a literal holding another is deep-copied by a runtime call (see `emptyIteration`).
  const messages = appendedHistory(context, appended);
  const tokens = { ...context.tokens, estimatedSince: context.tokens.estimatedSince + estimateTokens(appended) };
  return { messages, tokens };
}

/**
 * A new array, unless the caller's fold holds a claim on this very history (`TransientHistory`: only replay's
 * one-pass fold, whose earlier states no one keeps): then the messages are pushed onto it in place. The copy is
 * O(history) per turn, most of a long fold's time and garbage; the push is O(appended).
 */
function appendedHistory(context: MachineContext, appended: Message[]): Message[] {
  const base = context.messages;
  const transient = (context as Partial<ScratchContext>).transient;
  if (transient && transient.array === base) {
    const assistant = context.iter.assistantMessages;
    for (let i = 0; i < assistant.length; i++) base.push(assistant[i]);
    for (let i = 0; i < appended.length; i++) base.push(appended[i]);
    return base;
  }
  // concat, not spread: it copies a long history several times faster.
  const copy = base.concat(context.iter.assistantMessages, appended);
  if (transient) transient.array = copy;
  return copy;
}

export const continueCollapseDrainRetry: ActionFn = (context, event) => {
  const { committed, edits } = event as EventOf<'collapse_drain_result'>;
  return { ...CLEARED, ...replaceHistory(context, applyEdits(context.messages, edits)), transition: { reason: 'collapse_drain_retry', committed } };
};

export const continueReactiveCompactRetry: ActionFn = (context, event) => {
  const result = event as EventOf<'reactive_compact_result'>;
  const post = result.postCompactMessages ?? [];
  const out = openOutbox(context).emit(...post);
  return {
    ...out.patch(),
    ...CLEARED,
    ...compactedHistory(context, post),
    autoCompactTracking: null,
    hasAttemptedReactiveCompact: true,
    transition: { reason: 'reactive_compact_retry' },
  };
};

/** Same request with a higher `max_tokens`; the truncated output is dropped. */
export const continueMaxOutputTokensEscalate: ActionFn = (context) => ({
  ...CLEARED,
  maxOutputTokensOverride: context.config.limits.escalatedMaxTokens,
  transition: { reason: 'max_output_tokens_escalate' },
});

/**
 * The recovery prompt is added to the history but never emitted, like the withheld error it answers: the original
 * keeps both from its caller (Claude Code 2.1.88 `query.ts:1223-1250`).
 */
export const continueMaxOutputTokensRecovery: ActionFn = (context) => {
  const out = openOutbox(context);
  const prompt = userMessage(out.id('m'), recoveryPrompt(), true);
  const attempt = context.maxOutputTokensRecoveryCount + 1;
  return {
    ...out.patch(),
    ...CLEARED,
    ...extendHistory(context, [prompt]),
    maxOutputTokensRecoveryCount: attempt,
    transition: { reason: 'max_output_tokens_recovery', attempt },
  };
};

/** The reactive flag is kept on purpose: resetting it here looped compact → too long → hook → retry. */
export const continueStopHookBlocking: ActionFn = (context, event) => {
  const result = event as EventOf<'stop_hooks_result'>;
  const out = openOutbox(context);
  const feedback = result.blockingErrors.map((error) => userMessage(out.id('m'), stopHookFeedback(error), true));
  out.emit(...feedback);
  emitStopHookSummary(out, result);
  return {
    ...out.patch(),
    ...CLEARED,
    ...extendHistory(context, feedback),
    maxOutputTokensRecoveryCount: 0,
    stopHookActive: true,
    stopHookBlockingCount: context.stopHookBlockingCount + 1,
    transition: { reason: 'stop_hook_blocking' },
  };
};

export const continueTokenBudget: ActionFn = (context) => {
  const decision = tokenBudgetDecision(context);
  if (decision.action !== 'continue') return UNCHANGED;
  const out = openOutbox(context);
  // Added to the history, never emitted (Claude Code 2.1.88 `query.ts:1308-1330`).
  const nudge = userMessage(out.id('m'), tokenBudgetNudge(decision.pct, decision.turnTokens, decision.budget), true);
  return {
    ...out.patch(),
    ...CLEARED,
    ...extendHistory(context, [nudge]),
    maxOutputTokensRecoveryCount: 0,
    hasAttemptedReactiveCompact: false,
    tokenBudget: decision.tracker,
    transition: { reason: 'token_budget_continuation' },
  };
};

export const continueNextTurn: ActionFn = (context) => {
  const tracking = context.autoCompactTracking;
  // Fields listed, not spread: after a spread, V8 missed its inline cache on every store below (once a turn).
  const { messages, tokens } = extendHistory(context, context.iter.toolResults);
  // Made apart from the patch: a literal holding a literal is deep-copied by a runtime call (see `emptyIteration`).
  const transition = { reason: 'next_turn' as const };
  return {
    messages,
    tokens,
    autoCompactTracking: tracking?.compacted ? { ...tracking, turnCounter: tracking.turnCounter + 1 } : tracking,
    maxOutputTokensRecoveryCount: 0,
    hasAttemptedReactiveCompact: false,
    maxOutputTokensOverride: null,
    turnCount: context.turnCount + 1,
    transition,
  };
};
