/**
 * Actions of tool execution and what follows it (docs/loop.md §4.10-15, §7). Pairing (docs/loop.md §9.9) is enforced here:
 * every tool_use of an attempt is answered exactly once, by the tool or by a synthetic error result.
 */
import type { Message, UserMessage } from '../../messages/types.ts';
import type { EventOf } from '../../data/events.ts';
import {
  attachmentMessage,
  INTERRUPTED_DURING_TOOLS_TEXT,
  INTERRUPTED_TEXT,
  toolErrorResult,
  userMessage,
} from '../../messages/message-factory.ts';
import { partitionToolCalls } from '../../rules/tool-batching.ts';
import { copyIteration, keepsEffects, openOutbox, skipEffect, type Outbox, type ActionFn, type MachineContext, UNCHANGED } from '../machine-context.ts';
import { isSubagent, nextTurnExceedsMaxTurns } from '../queries.ts';
import { queueOne } from '../queue-one.ts';

// A loop, and a Set only for a long list: this runs once a tool turn, where almost always every tool_use is
// answered, and the Set and the two callbacks' arrays were most of what it cost.
function answeredSet(ids: readonly string[]): Set<string> | null {
  return ids.length > 8 ? new Set(ids) : null;
}

function isAnswered(id: string, ids: readonly string[], set: Set<string> | null): boolean {
  return set !== null ? set.has(id) : ids.includes(id);
}

/**
 * Emits one error tool_result for every tool_use of this attempt that has none yet, and returns them.
 */
export function answerOrphans(context: MachineContext, out: Outbox, reason: string): UserMessage[] {
  const { toolUses, answeredToolUseIds } = context.iter;
  const answered = answeredSet(answeredToolUseIds);
  const results: UserMessage[] = [];
  for (let i = 0; i < toolUses.length; i++) {
    if (isAnswered(toolUses[i].id, answeredToolUseIds, answered)) continue;
    results.push(toolErrorResult(out.id('m'), toolUses[i], reason));
  }
  for (let i = 0; i < results.length; i++) out.emit(results[i]);
  return results;
}

function orphanReason(context: MachineContext): string {
  return context.iter.abortReason !== null
    ? `Interrupted (${context.iter.abortReason}) before this tool call finished.`
    : 'This tool call did not return a result.';
}

/** Whether some tool_use of this attempt has no answer yet (`answerOrphans` would answer it). */
function hasOrphans(context: MachineContext): boolean {
  const { toolUses, answeredToolUseIds } = context.iter;
  const answered = answeredSet(answeredToolUseIds);
  for (let i = 0; i < toolUses.length; i++) {
    if (!isAnswered(toolUses[i].id, answeredToolUseIds, answered)) return true;
  }
  return false;
}

/** Answers the orphans and records the answers as this iteration's results (they enter the history). */
export const answerOrphanToolUses: ActionFn = (context) => {
  // Almost every tool turn has all its answers by now: nothing changes, so no outbox (its patch only rewrote the
  // counter it read).
  if (!hasOrphans(context)) return UNCHANGED;
  const out = openOutbox(context);
  const results = answerOrphans(context, out, orphanReason(context));
  if (results.length === 0) return out.patch();
  return out.patchWith({
    iter: {
      ...context.iter,
      toolResults: [...context.iter.toolResults, ...results],
      answeredToolUseIds: [...context.iter.answeredToolUseIds, ...results.map((r) => r.sourceToolUseId as string)],
    },
  });
};

export const runToolBatches: ActionFn = (context) =>
  // In a fold that reads only emitted messages (`keepsEffects`), this and the other request actions build no effect.
  !keepsEffects(context) ? skipEffect(context, {}) : queueOne(context, { type: 'run_tools', batches: partitionToolCalls(context.iter.toolUses, context.iter.concurrencySafe) });

export const finishStreamingTools: ActionFn = (context) =>
  !keepsEffects(context) ? skipEffect(context, {}) : queueOne(context, { type: 'finish_tools' });

export const recordToolResult: ActionFn = (context, event) => {
  const result = event as EventOf<'tool_result'>;
  const extra = result.extra ?? [];
  // A result without extra messages (most) takes no spread or filter callback: this runs on every tool call, mostly
  // before V8 optimizes it. The same messages and lists either way.
  const carried: Message[] = extra.length === 0 ? [result.message] : [result.message, ...extra.filter((m) => m.type === 'attachment')];
  const iter = copyIteration(context.iter);
  iter.toolResults = context.iter.toolResults.concat(carried);
  iter.answeredToolUseIds = context.iter.answeredToolUseIds.concat([result.toolUseId]);
  iter.preventContinuation = context.iter.preventContinuation || result.preventContinuation === true;
  const fields = {
    toolUseContext: result.contextPatch ? { ...context.toolUseContext, ...result.contextPatch } : context.toolUseContext,
    iter,
  };
  // One emitted message (most results): no outbox.
  if (extra.length === 0) return queueOne(context, { type: 'emit', message: result.message }, fields);
  return openOutbox(context).emit(...extra, result.message).patchWith(fields);
};

export const noteAbort: ActionFn = (context, event) => {
  if (context.iter.abortReason !== null) return UNCHANGED;
  return { iter: { ...context.iter, abortReason: (event as EventOf<'abort'>).reason } };
};

/** docs/loop.md §4.7: unless the user interrupted by typing, say that the request was interrupted. */
export const emitInterruptedMessage: ActionFn = (context) => {
  if (context.iter.abortReason === 'interrupt') return UNCHANGED;
  const out = openOutbox(context);
  out.emit(userMessage(out.id('m'), INTERRUPTED_TEXT));
  return out.patch();
};

/** docs/loop.md §4.11: only when enabled, tools ran, not aborted, not a subagent. */
export const startToolUseSummary: ActionFn = (context) => {
  const { iter } = context;
  if (!context.config.features.toolUseSummaries || iter.toolUses.length === 0) return UNCHANGED;
  if (iter.abortReason !== null || isSubagent(context.querySource)) return UNCHANGED;
  const out = openOutbox(context);
  const summaryId = out.id('s');
  const toolUseIds = iter.toolUses.map((t) => t.id);
  out.push({ type: 'start_tool_use_summary', summaryId, toolUseIds });
  return out.patchWith({ pendingToolUseSummary: { summaryId, toolUseIds, summary: null } });
};

function maxTurnsAttachment(context: MachineContext, out: Outbox): Message {
  return attachmentMessage(out.id('m'), {
    type: 'max_turns_reached',
    maxTurns: context.params.maxTurns as number,
    turnCount: context.turnCount + 1,
  });
}

/** docs/loop.md §4.12. */
export const emitToolInterruption: ActionFn = (context) => {
  const out = openOutbox(context);
  if (context.iter.abortReason !== 'interrupt') out.emit(userMessage(out.id('m'), INTERRUPTED_DURING_TOOLS_TEXT));
  if (nextTurnExceedsMaxTurns(context)) out.emit(maxTurnsAttachment(context, out));
  return out.patch();
};

export const requestAttachments: ActionFn = (context) =>
  !keepsEffects(context) ? skipEffect(context, {}) : queueOne(context, { type: 'collect_attachments', messages: context.iter.toolResults });

/** docs/loop.md §4.14: attachments go after the tool results, never before (pairing). */
export const appendAttachments: ActionFn = (context, event) => {
  const { attachments } = event as EventOf<'attachments_collected'>;
  if (attachments.length === 0) return UNCHANGED;
  const out = openOutbox(context).emit(...attachments);
  return out.patchWith({ iter: { ...context.iter, toolResults: [...context.iter.toolResults, ...attachments] } });
};

/** docs/loop.md §4.15: `maxTurns: 1` allows one model call and its tools. */
export const stopAtMaxTurns: ActionFn = (context) => {
  const out = openOutbox(context);
  out.emit(maxTurnsAttachment(context, out));
  return out.patchWith({ terminal: { reason: 'max_turns', turnCount: context.turnCount + 1 } });
};
