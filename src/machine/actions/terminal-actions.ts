/**
 * The single action of every final state: it completes the Terminal and emits `terminated`, the last effect of a
 * run (docs/loop.md §9.8: nothing follows it).
 */
import type { Terminal, TerminalReason } from '../../data/outcomes.ts';
import { openOutbox, type ActionFn } from '../machine-context.ts';

export const terminate: ActionFn<{ reason: TerminalReason }> = (context, _event, params) => {
  const terminal = { ...(context.terminal ?? {}), reason: params.reason } as Terminal;
  return { ...openOutbox(context).push({ type: 'terminated', terminal, usage: context.lastUsage }).patch(), terminal };
};
