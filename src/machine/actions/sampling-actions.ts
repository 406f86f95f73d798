/**
 * Actions of sampling the model (docs/loop.md §4.5-8): the request, each finished block, withholding, the two fallbacks,
 * model errors, and what happens right after the reply.
 */
import type { AssistantMessage, Message, ToolUseBlock } from '../../messages/types.ts';
import type { ModelRequest } from '../../data/effects.ts';
import type { EventOf } from '../../data/events.ts';
import { userContextMessageOf } from '../context-conversions.ts';
import { apiErrorMessage, systemMessage, userMessage } from '../../messages/message-factory.ts';
import { usageCostUsd } from '../../rules/call-cost.ts';
import { estimateTokens, usageTokens } from '../../rules/tokens.ts';
import { copyIteration, keepsEffects, openOutbox, replaceHistory, resetAttempt, skipEffect, type ActionFn, type MachineContext, UNCHANGED } from '../machine-context.ts';
import { requestMaxTokens } from '../queries.ts';
import { queueOne } from '../queue-one.ts';
import { answerOrphans } from './tool-actions.ts';

/**
 * docs/loop.md §2: the user context is prepended to the messages of every request as one meta message, never stored in
 * the history, so compaction cannot summarise it away. Its uuid is fixed per run: every request carries the same
 * bytes (prompt-cache prefix).
 */
function withUserContext(context: MachineContext): Message[] {
  const message = userContextMessage(context);
  // concat, not spread: several times faster on a long history.
  return message ? ([message] as Message[]).concat(context.messages) : context.messages;
}

/** The run's user-context message, built once at the start (`LoopContext.userContextMessage`). */
function userContextMessage(context: MachineContext): Message | null {
  return context.userContextMessage !== undefined ? context.userContextMessage : userContextMessageOf(context.runId, context.params.userContext);
}

export function buildModelRequest(context: MachineContext): ModelRequest {
  const { params } = context;
  const request: ModelRequest = {
    model: context.currentModel,
    max_tokens: requestMaxTokens(context),
    messages: withUserContext(context),
    historyRevision: context.historyRevision,
    system: params.systemPrompt ?? [],
    tools: params.tools ?? [],
  };
  // docs/loop.md §6: `remaining` only once a compaction happened (until then the API sees the whole history and counts).
  if (params.taskBudget) {
    const remaining = context.taskBudgetRemaining;
    request.task_budget = remaining === null ? { total: params.taskBudget.total } : { total: params.taskBudget.total, remaining };
  }
  return request;
}

export const callModel: ActionFn = (context) => {
  const modelCall = context.modelCalls + 1;
  // A fold that reads only emitted messages builds no request (with a user context, its history copy is O(history)).
  if (!keepsEffects(context)) return skipEffect(context, { modelCalls: modelCall });
  return queueOne(context, {
    type: 'call_model',
    request: buildModelRequest(context),
    querySource: context.querySource,
    modelCall,
  }, { modelCalls: modelCall });
};

/** Withheld messages are recorded but not shown until the exit ladder knows whether it can recover. */
function shouldWithhold(context: MachineContext, message: AssistantMessage): boolean {
  const { features } = context.config;
  switch (message.apiError?.kind) {
    case 'prompt_too_long':
      return features.contextCollapse || features.reactiveCompact;
    case 'media_size':
      return features.reactiveCompact;
    case 'max_output_tokens':
      return true;
    default:
      return false;
  }
}

/**
 * `{ ...kept, ...added }`, without the copy when nothing is kept (the first reply of an iteration): then the event's
 * own flags, which are plain JSON data like the message the iteration keeps from the same event. Their keys are
 * tool-use ids, new every turn, so a copy defined each one as a new shape (a tenth of a memoized fold).
 */
function mergedFlags(kept: Record<string, boolean>, added: Record<string, boolean> | undefined): Record<string, boolean> {
  if (added !== undefined && Object.getPrototypeOf(added) === Object.prototype && hasNoKeys(kept)) return added;
  return { ...kept, ...added };
}

function hasNoKeys(flags: Record<string, boolean>): boolean {
  for (const _ in flags) return false;
  return Object.getOwnPropertySymbols(flags).length === 0;
}

/**
 * The reply's tool_use blocks, in order: a new array, or the one frozen empty array when it has none (only a
 * non-empty list is kept). The first block makes an array of one: a push onto an empty literal reserved room for 16.
 */
function toolUsesOf(message: AssistantMessage): ToolUseBlock[] {
  let toolUses: ToolUseBlock[] | null = null;
  const content = message.message.content;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (block.type !== 'tool_use') continue;
    if (toolUses === null) toolUses = [block];
    else toolUses.push(block);
  }
  return toolUses ?? NO_TOOL_USES;
}

const NO_TOOL_USES: ToolUseBlock[] = Object.freeze([]) as unknown as ToolUseBlock[];

export const recordAssistantMessage: ActionFn = (context, event) => {
  const { message, concurrencySafe } = event as EventOf<'model_message'>;
  const out = openOutbox(context);
  const iter = copyIteration(context.iter);
  // Loops and `concat`, not an iterator spread and a `filter` callback: this runs once a reply, mostly before V8
  // optimizes it, where each costs more than the rest of the action.
  iter.assistantMessages = context.iter.assistantMessages.concat([message]);
  const toolUses = toolUsesOf(message);
  if (toolUses.length > 0) {
    iter.toolUses = iter.toolUses.length === 0 ? toolUses : iter.toolUses.concat(toolUses);
    iter.needsFollowUp = true;
    iter.concurrencySafe = mergedFlags(iter.concurrencySafe, concurrencySafe);
  }
  if (shouldWithhold(context, message)) iter.withheld = message;
  // `push`, not `emit(message)`: the same effect without a rest array and a loop (once a reply).
  else out.push({ type: 'emit', message });
  // An indexed loop: an iterator per reply was garbage each turn.
  if (context.config.features.streamingToolExecution) {
    for (let i = 0; i < toolUses.length; i++) {
      const toolUse = toolUses[i];
      out.push({ type: 'enqueue_tool', toolUse, concurrencySafe: iter.concurrencySafe[toolUse.id] === true });
      iter.streamingToolsStarted = true;
    }
  }
  return out.patchWith({ iter });
};

export const recordUsage: ActionFn = (context, event) => {
  const { usage } = event as EventOf<'model_done'>;
  if (!usage) return UNCHANGED;
  const iter = copyIteration(context.iter);
  iter.usage = usage;
  // The original anchors the count at the response's first block: its later blocks are estimated on top of the
  // usage (utils/tokens.ts:226-261), so the running count equals tokenCountWithEstimation of the history.
  // Nothing after the first block (a reply of one block, most replies): no slice to estimate (0 either way). Made
  // apart from the patch: a literal holding a literal is deep-copied by a runtime call (see `emptyIteration`).
  const tokens = { reported: usageTokens(usage), estimatedSince: context.iter.assistantMessages.length > 1 ? estimateTokens(context.iter.assistantMessages.slice(1)) : 0 };
  return {
    iter,
    lastUsage: usage,
    tokens,
    outputTokens: context.outputTokens + usage.output_tokens,
    costUsd: context.costUsd + usageCostUsd(usage, context.currentModel),
  };
};

/**
 * Streaming fallback: the broken attempt is deleted from the UI and forgotten; the model does not change. Every
 * message of the attempt gets a tombstone, withheld ones too, as in the original (a UI ignores an unknown target).
 */
export const discardAttempt: ActionFn = (context) => {
  const out = openOutbox(context);
  for (const message of context.iter.assistantMessages) out.emit({ type: 'tombstone', uuid: out.id('m'), targetUuid: message.uuid });
  if (context.iter.streamingToolsStarted) out.push({ type: 'discard_tools', reason: 'streaming_fallback' });
  return out.patchWith({ iter: resetAttempt(context.iter) });
};

/** Thinking blocks are bound to the model that wrote them; a fallback model must not see their signatures. */
function stripThinking(messages: Message[]): Message[] {
  return messages.flatMap((message): Message[] => {
    if (message.type !== 'assistant') return [message];
    const content = message.message.content.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
    if (content.length === message.message.content.length) return [message];
    return content.length === 0 ? [] : [{ ...message, message: { ...message.message, content } }];
  });
}

/**
 * Model fallback (docs/loop.md §4.5): answer this attempt's unanswered tool_uses (a tool that already ran keeps its real
 * result; the text claims nothing about whether a tool ran), drop the attempt, switch models, warn.
 */
export const switchToFallbackModel: ActionFn = (context) => {
  const fallback = context.params.fallbackModel as string;
  const out = openOutbox(context);
  answerOrphans(context, out, `The request was retried on the fallback model ${fallback}; this tool call's result was discarded with the attempt.`);
  if (context.iter.streamingToolsStarted) out.push({ type: 'discard_tools', reason: 'model_fallback' });
  const text = `${context.currentModel} is overloaded; switching to the fallback model ${fallback}.`;
  out.emit(systemMessage(out.id('m'), 'warning', text, 'warning', { from: context.currentModel, to: fallback }));
  const messages = context.config.features.stripThinkingOnFallback ? stripThinking(context.messages) : context.messages;
  return out.patchWith({ currentModel: fallback, ...replaceHistory(context, messages), iter: resetAttempt(context.iter) });
};

function failWithModelError(context: MachineContext, error: { message: string; status?: number; type?: string }) {
  const out = openOutbox(context);
  answerOrphans(context, out, `The model request failed: ${error.message}`);
  out.emit(apiErrorMessage(out.id('m'), context.currentModel, 'other', error.message));
  return out.patchWith({ terminal: { reason: 'model_error' as const, error } });
}

/** The Terminal carries `ModelErrorInfo` (message, status, type); the event's `kind` only chose the branch. */
export const failOnModelError: ActionFn = (context, event) => {
  const { kind: _kind, ...error } = (event as EventOf<'model_error'>).error;
  return failWithModelError(context, error);
};

/**
 * Overloaded with no fallback left (the fallback model itself, or no call left under the cap): like any API
 * failure the caller gives up on, it is an API-error message and the exit ladder ends the turn (docs/loop.md §4.5).
 */
export const recordOverloadedAsApiError: ActionFn = (context, event) => {
  const out = openOutbox(context);
  const text = `API error 529 overloaded_error: ${(event as EventOf<'model_overloaded'>).message}`;
  const message = apiErrorMessage(out.id('m'), context.currentModel, 'other', text, { status: 529, errorType: 'overloaded_error' });
  out.emit(message);
  return out.patchWith({ iter: { ...context.iter, assistantMessages: [...context.iter.assistantMessages, message] } });
};

export const failOnImageError: ActionFn = (context, event) => {
  const out = openOutbox(context);
  answerOrphans(context, out, 'The request was rejected because of an image.');
  out.emit(apiErrorMessage(out.id('m'), context.currentModel, 'media_size', (event as EventOf<'model_error'>).error.message));
  return out.patch();
};

/** docs/loop.md §4.6: fire and forget, only when something was sampled. */
export const runPostSamplingHooks: ActionFn = (context) => {
  if (context.iter.assistantMessages.length === 0) return UNCHANGED;
  if (!keepsEffects(context)) return skipEffect(context, {});
  return queueOne(context, { type: 'run_post_sampling_hooks', messages: context.iter.assistantMessages });
};

/** docs/loop.md §4.8: the previous iteration's summary, if it has arrived by now. */
export const emitResolvedToolUseSummary: ActionFn = (context) => {
  const pending = context.pendingToolUseSummary;
  if (!pending || pending.summary === null) return UNCHANGED;
  const out = openOutbox(context);
  out.emit({ type: 'tool_use_summary', uuid: out.id('m'), summary: pending.summary, precedingToolUseIds: pending.toolUseIds });
  return out.patchWith({ pendingToolUseSummary: null });
};

export const recordToolUseSummary: ActionFn = (context, event) => {
  const ready = event as EventOf<'tool_use_summary_ready'>;
  const pending = context.pendingToolUseSummary;
  if (!pending || pending.summaryId !== ready.summaryId) return UNCHANGED;
  return { pendingToolUseSummary: { ...pending, summary: ready.summary } };
};
