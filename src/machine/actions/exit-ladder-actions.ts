/**
 * Actions of the exit ladder (docs/loop.md §4.9) other than the continues, which live in `continue-actions.ts`.
 */
import type { EventOf } from '../../data/events.ts';
import type { Terminal } from '../../data/outcomes.ts';
import {
  attachmentMessage,
  INTERRUPTED_TEXT,
  STOP_HOOK_PREVENTED_TEXT,
  stopHookFeedback,
  stopHookSummaryText,
  systemMessage,
  userMessage,
} from '../../messages/message-factory.ts';
import { openOutbox, type Outbox, type ActionFn, UNCHANGED } from '../machine-context.ts';
import { lastAssistantMessage, tokenBudgetDecision, withheldKind } from '../queries.ts';

export const requestCollapseDrain: ActionFn = (context) =>
  openOutbox(context).push({ type: 'collapse_drain', messages: context.messages }).patch();

export const requestReactiveCompact: ActionFn = (context) => {
  const trigger = withheldKind(context) === 'media_size' ? 'media_size' : 'prompt_too_long';
  return openOutbox(context).push({ type: 'reactive_compact', messages: context.messages, trigger }).patch();
};

/** Shows the withheld error after all: recovery is not possible (or not needed any more). */
export const releaseWithheld: ActionFn = (context) => {
  const withheld = context.iter.withheld;
  if (!withheld) return UNCHANGED;
  return { ...openOutbox(context).emit(withheld).patch(), iter: { ...context.iter, withheld: null } };
};

/** docs/loop.md §4.9.3: stop-failure hooks replace stop hooks when the turn ended in an API error. */
export const runStopFailureHooks: ActionFn = (context) => {
  const error = lastAssistantMessage(context);
  if (!error) return UNCHANGED;
  return openOutbox(context).push({ type: 'run_stop_failure_hooks', error }).patch();
};

/** Extension `terminalApiError`: the Terminal names the API error the turn ended on (the reason stays the original's). */
export const recordApiErrorEnding: ActionFn = (context) => {
  const apiError = lastAssistantMessage(context)?.apiError;
  if (!apiError) return UNCHANGED;
  return { terminal: { ...(context.terminal ?? { reason: 'completed' }), apiError } as Terminal };
};

export const requestStopHooks: ActionFn = (context) =>
  openOutbox(context)
    .push({
      type: 'run_stop_hooks',
      messages: [...context.messages, ...context.iter.assistantMessages],
      stopHookActive: context.stopHookActive,
    })
    .patch();

/**
 * What the stop hooks said, as the original shows it: one meta feedback message per blocking error and, when a
 * hook prevented continuation, the `hook_stopped_continuation` attachment.
 */
function emitStopHookAnswers(out: Outbox, result: EventOf<'stop_hooks_result'>): void {
  out.emit(...result.blockingErrors.map((error) => userMessage(out.id('m'), stopHookFeedback(error), true)));
  if (!result.preventContinuation) return;
  const message = result.stopReason ?? STOP_HOOK_PREVENTED_TEXT;
  out.emit(attachmentMessage(out.id('m'), { type: 'hook_stopped_continuation', message, hookName: 'Stop', hookEvent: 'Stop' }));
}

/** The summary the original shows once stop hooks ran (not when none answered). */
export function emitStopHookSummary(out: Outbox, result: EventOf<'stop_hooks_result'>): void {
  const count = result.hookCount ?? 0;
  if (count === 0) return;
  out.emit(
    systemMessage(out.id('m'), 'stop_hook_summary', stopHookSummaryText(count, result.blockingErrors, result.preventContinuation ? (result.stopReason ?? STOP_HOOK_PREVENTED_TEXT) : null), 'info', {
      hookCount: count,
      blockingErrors: result.blockingErrors,
      preventedContinuation: result.preventContinuation,
      ...(result.stopReason === undefined ? {} : { stopReason: result.stopReason }),
    }),
  );
}

/** docs/loop.md §4.9.4: a hook's `preventContinuation` wins over blocking errors; the attachment records it. */
export const preventByStopHook: ActionFn = (context, event) => {
  const result = event as EventOf<'stop_hooks_result'>;
  const out = openOutbox(context);
  emitStopHookAnswers(out, result);
  emitStopHookSummary(out, result);
  const { stopReason } = result;
  return out.patchWith({
    terminal: stopReason === undefined ? { reason: 'stop_hook_prevented' } : { reason: 'stop_hook_prevented', stopReason },
  });
};

export const summarizeStopHooks: ActionFn = (context, event) => {
  const out = openOutbox(context);
  emitStopHookSummary(out, event as EventOf<'stop_hooks_result'>);
  return out.patch();
};

/** docs/loop.md §4.9.4: aborted after a hook answered: what answered is shown, then the "interrupted" message. */
export const preventByAbort: ActionFn = (context, event) => {
  const out = openOutbox(context);
  emitStopHookAnswers(out, event as EventOf<'stop_hooks_result'>);
  out.emit(userMessage(out.id('m'), INTERRUPTED_TEXT));
  return out.patchWith({ terminal: { reason: 'stop_hook_prevented' } });
};

export const stopAtStopHookCap: ActionFn = (context) => {
  const out = openOutbox(context);
  const cap = context.config.limits.maxStopHookBlocking;
  const message = `Stopped: stop hooks blocked the end of the turn ${cap} times (limits.maxStopHookBlocking).`;
  out.emit(systemMessage(out.id('m'), 'cap_reached', message, 'warning', { cap: 'maxStopHookBlocking' }));
  return out.patchWith({ terminal: { reason: 'stop_hook_prevented', cap: 'maxStopHookBlocking', message } });
};

/**
 * docs/loop.md §8: the end of an auto-continued turn. The original emits nothing (it only logs the decision); the decision
 * is kept on the Terminal instead (Extension `terminalTokenBudget`), so it is in the step record.
 */
export const completeTokenBudget: ActionFn = (context) => {
  const decision = tokenBudgetDecision(context);
  if (decision.action !== 'stop' || !decision.report) return UNCHANGED;
  const tokenBudget = { pct: decision.pct, continuations: context.tokenBudget.continuationCount, diminishing: decision.diminishing };
  return { terminal: { ...(context.terminal ?? { reason: 'completed' }), tokenBudget } as Terminal };
};
