/**
 * The single action of every final state: it completes the Terminal and emits `terminated`, the last effect of a
 * run (docs/loop.md §9.8: nothing follows it).
 */
import type { Terminal, TerminalReason } from '../../data/outcomes.ts';
import type { ActionFn } from '../machine-context.ts';
import { queueOne } from '../queue-one.ts';

export const terminate: ActionFn<{ reason: TerminalReason }> = (context, _event, params) => {
  // A literal when nothing was set before (most runs): a spread that gains a member made a new hidden class on
  // every call, once per run (a fiftieth of a 10-turn fold). Same members in the same order either way.
  const terminal = (context.terminal === null ? { reason: params.reason } : { ...context.terminal, reason: params.reason }) as Terminal;
  return queueOne(context, { type: 'terminated', terminal, usage: context.lastUsage }, { terminal });
};
