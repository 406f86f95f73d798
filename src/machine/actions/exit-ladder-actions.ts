/**
 * Actions of the exit ladder (SPEC §4.9) other than the continues, which live in `continue-actions.ts`.
 */
import type { EventOf } from '../../reducer/events.ts';
import type { Terminal } from '../../reducer/outcomes.ts';
import { systemMessage } from '../../reducer/message-factory.ts';
import { Outbox, type ActionFn } from '../machine-context.ts';
import { lastAssistantMessage, tokenBudgetDecision, withheldKind } from '../queries.ts';

export const requestCollapseDrain: ActionFn = (context) =>
  new Outbox(context).push({ type: 'collapse_drain', messages: context.messages }).patch();

export const requestReactiveCompact: ActionFn = (context) => {
  const trigger = withheldKind(context) === 'media_size' ? 'media_size' : 'prompt_too_long';
  return new Outbox(context).push({ type: 'reactive_compact', messages: context.messages, trigger }).patch();
};

/** Shows the withheld error after all: recovery is not possible (or not needed any more). */
export const releaseWithheld: ActionFn = (context) => {
  const withheld = context.iter.withheld;
  if (!withheld) return {};
  return { ...new Outbox(context).emit(withheld).patch(), iter: { ...context.iter, withheld: null } };
};

/** SPEC §4.9.3: stop-failure hooks replace stop hooks when the turn ended in an API error. */
export const runStopFailureHooks: ActionFn = (context) => {
  const error = lastAssistantMessage(context);
  if (!error) return {};
  return new Outbox(context).push({ type: 'run_stop_failure_hooks', error }).patch();
};

/** Extension `terminalApiError`: the Terminal names the API error the turn ended on (the reason stays the original's). */
export const recordApiErrorEnding: ActionFn = (context) => {
  const apiError = lastAssistantMessage(context)?.apiError;
  if (!apiError) return {};
  return { terminal: { ...(context.terminal ?? { reason: 'completed' }), apiError } as Terminal };
};

export const requestStopHooks: ActionFn = (context) =>
  new Outbox(context)
    .push({
      type: 'run_stop_hooks',
      messages: [...context.messages, ...context.iter.assistantMessages],
      stopHookActive: context.stopHookActive,
    })
    .patch();

export const preventByStopHook: ActionFn = (context, event) => {
  const { stopReason } = event as EventOf<'stop_hooks_result'>;
  return { terminal: stopReason === undefined ? { reason: 'stop_hook_prevented' } : { reason: 'stop_hook_prevented', stopReason } };
};

export const preventByAbort: ActionFn = (context, event) => ({
  iter: { ...context.iter, abortReason: (event as EventOf<'abort'>).reason },
  terminal: { reason: 'stop_hook_prevented', stopReason: 'aborted while stop hooks ran' },
});

export const stopAtStopHookCap: ActionFn = (context) => {
  const out = new Outbox(context);
  const cap = context.config.limits.maxStopHookBlocking;
  const message = `Stopped: stop hooks blocked the end of the turn ${cap} times (limits.maxStopHookBlocking).`;
  out.emit(systemMessage(out.id('m'), 'cap_reached', message, 'warning', { cap: 'maxStopHookBlocking' }));
  return { ...out.patch(), terminal: { reason: 'stop_hook_prevented', cap: 'maxStopHookBlocking', message } };
};

/** SPEC §8: report the end of an auto-continued turn. */
export const completeTokenBudget: ActionFn = (context) => {
  const decision = tokenBudgetDecision(context);
  if (decision.action !== 'stop' || !decision.report) return {};
  const out = new Outbox(context);
  const text = decision.diminishing
    ? `Token budget: stopped at ${decision.pct}% because the last continuations produced little output.`
    : `Token budget: reached ${decision.pct}% of the budget after ${context.tokenBudget.continuationCount} continuations.`;
  out.emit(
    systemMessage(out.id('m'), 'token_budget_completed', text, 'info', {
      pct: decision.pct,
      continuations: context.tokenBudget.continuationCount,
      diminishing: decision.diminishing,
    }),
  );
  return out.patch();
};
