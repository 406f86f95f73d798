/**
 * Actions of the start of an iteration: the context pipeline, autocompact and the blocking check (docs/loop.md §4.1-4).
 */
import type { Message } from '../../messages/types.ts';
import type { ContextLayer } from '../../data/effects.ts';
import { applyEdits } from '../../rules/edits.ts';
import type { EventOf } from '../../data/events.ts';
import { apiErrorMessage, systemMessage } from '../../messages/message-factory.ts';
import { finalContextTokensOfLastResponse, nextTaskBudgetRemaining } from '../../rules/task-budget.ts';
import { estimateTokens } from '../../rules/tokens.ts';
import { emptyIteration, keepsEffects, newHistory, openOutbox, skipEffect, replaceHistory, type ActionFn, type ContextPatch, type MachineContext, UNCHANGED } from '../machine-context.ts';
import { currentTokenCount, thresholdsFor } from '../queries.ts';
import { queueOne } from '../queue-one.ts';

export const startIteration: ActionFn = (context) => {
  // In a fold that reads only emitted messages (`keepsEffects`), an action that only requests something builds no
  // outbox and no effect: these are most of a tool turn's actions.
  if (!keepsEffects(context)) return skipEffect(context, { iter: emptyIteration() });
  return queueOne(context, { type: 'request_start' }, { iter: emptyIteration() });
};

export const requestContextLayer: ActionFn<{ layer: ContextLayer }> = (context, _event, params) => {
  if (!keepsEffects(context)) return skipEffect(context, {});
  return queueOne(context, {
    type: 'context_layer',
    layer: params.layer,
    messages: context.messages,
    tokenCount: currentTokenCount(context),
  });
};

/**
 * docs/loop.md §6: the autocompact and blocking checks subtract what snip freed (usage cannot see what it removed) and
 * what the tool-result budget freed (it shrinks fresh results, which the original's estimate would see shrink);
 * microcompact and collapse act on history before the last reported usage, which the original's count does not
 * re-estimate, so their savings are not subtracted.
 */
function countsAsFreed(layer: ContextLayer): boolean {
  return layer === 'snip' || layer === 'tool_result_budget';
}

export const applyContextLayer: ActionFn = (context, event) => {
  const result = event as EventOf<'context_layer_result'>;
  // Most results change nothing (no edit, nothing emitted or freed): then there is no patch to write.
  const emitted = result.emitted ?? [];
  const freed = countsAsFreed(result.layer) ? result.tokensFreed : 0;
  if (emitted.length === 0 && result.edits.length === 0 && freed === 0) return UNCHANGED;
  const patch: ContextPatch = emitted.length > 0 ? openOutbox(context).emit(...emitted).patch() : {};
  if (result.edits.length > 0) Object.assign(patch, replaceHistory(context, applyEdits(context.messages, result.edits)));
  if (freed !== 0) patch.iter = { ...context.iter, tokensFreed: context.iter.tokensFreed + freed };
  return patch;
};

export const requestAutocompact: ActionFn = (context) =>
  queueOne(context, { type: 'autocompact', messages: context.messages, tokenCount: currentTokenCount(context) });

/**
 * docs/loop.md §6 "Task budget": every compaction spends the final context window of the last response before it (its
 * input + output tokens, no cache tokens) out of the task budget.
 */
export function taskBudgetAfterCompaction(context: MachineContext): number | null {
  const total = context.params.taskBudget?.total;
  if (total === undefined) return context.taskBudgetRemaining;
  return nextTaskBudgetRemaining(context.taskBudgetRemaining, total, finalContextTokensOfLastResponse(context.messages));
}

/** The context fields every successful compaction writes: new history, fresh token count, task budget. */
export function compactedHistory(context: MachineContext, postCompactMessages: Message[]) {
  return {
    ...newHistory(context, postCompactMessages),
    tokens: { reported: 0, estimatedSince: estimateTokens(postCompactMessages) },
    taskBudgetRemaining: taskBudgetAfterCompaction(context),
  };
}

export const applyAutocompact: ActionFn = (context, event) => {
  const result = event as EventOf<'autocompact_result'>;
  const post = result.postCompactMessages ?? [];
  const out = openOutbox(context).emit(...post);
  return {
    ...compactedHistory(context, post),
    ...out.patch(),
    autoCompactTracking: { compacted: true, turnId: out.id('turn'), turnCounter: 0, consecutiveFailures: 0 },
    iter: { ...context.iter, compacted: true, tokensFreed: 0 },
  };
};

/** docs/loop.md §9.3: failures count up; the breaker guard reads the count. */
export const recordAutocompactFailure: ActionFn = (context) => {
  const tracking = context.autoCompactTracking ?? { compacted: false, turnId: '', turnCounter: 0, consecutiveFailures: 0 };
  return { autoCompactTracking: { ...tracking, consecutiveFailures: tracking.consecutiveFailures + 1 } };
};

export const emitBlockingLimitError: ActionFn = (context) => {
  const out = openOutbox(context);
  const tokens = currentTokenCount(context);
  const limit = thresholdsFor(context).blocking;
  const text =
    `The conversation (${tokens} tokens) has reached the blocking limit of ${limit} tokens for ${context.currentModel}. ` +
    'Compact it or start a new session.';
  out.emit(apiErrorMessage(out.id('m'), context.currentModel, 'prompt_too_long', text));
  return out.patch();
};

/** Extension `maxBudgetUsd`: every tool_use of the run is answered by now (tools finish before a turn ends). */
export const stopAtSpendCap: ActionFn = (context) => {
  const out = openOutbox(context);
  const cap = context.config.limits.maxCostUsd;
  const spent = context.costUsd;
  const message = `Stopped: one more model call could take the spend ($${spent.toFixed(4)} so far) past the cap of $${cap} (limits.maxCostUsd).`;
  out.emit(systemMessage(out.id('m'), 'cap_reached', message, 'warning', { cap: 'maxCostUsd' }));
  return out.patchWith({ terminal: { reason: 'max_budget_usd', costUsd: spent, maxCostUsd: cap, message } });
};

export const stopAtModelCallCap: ActionFn = (context) => {
  const out = openOutbox(context);
  const message = `Stopped: the run reached its cap of ${context.config.limits.maxModelCalls} model calls (limits.maxModelCalls).`;
  out.emit(systemMessage(out.id('m'), 'cap_reached', message, 'warning', { cap: 'maxModelCalls' }));
  return out.patchWith({
    terminal: { reason: 'max_turns', turnCount: context.turnCount, cap: 'maxModelCalls', message },
  });
};
