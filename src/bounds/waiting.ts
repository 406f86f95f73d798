/**
 * What the loop waits for after a step, read from the step's effects: the model, a context layer, a compactor, a
 * drain, the tools (a batch, or the streaming executor's tools once the reply is finished), the stop hooks or the
 * attachments. Fire-and-forget effects ask for nothing. Pure: a new executor list is returned, never mutated.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { Effect } from '../reducer/effects.ts';
import type { Waiting } from './abstract-answers.ts';

export interface WaitState {
  waiting: Waiting | null;
  /** Tool uses handed to the streaming executor and not yet finished. */
  executor: readonly ToolUseBlock[];
}

export const NOTHING_PENDING: WaitState = { waiting: null, executor: [] };

/** The wait after `effects`, starting from `from` (the last effect that asks for an answer wins). */
export function waitAfter(effects: readonly Effect[], from: WaitState): WaitState {
  let { waiting, executor } = from;
  for (const e of effects) {
    switch (e.type) {
      case 'call_model':
        waiting = { kind: 'model' };
        break;
      case 'context_layer':
        waiting = { kind: 'layer', layer: e.layer };
        break;
      case 'autocompact':
        waiting = { kind: 'autocompact' };
        break;
      case 'reactive_compact':
        waiting = { kind: 'reactive' };
        break;
      case 'collapse_drain':
        waiting = { kind: 'drain' };
        break;
      case 'run_tools':
        waiting = { kind: 'tools', toolUses: e.batches.flatMap((b) => b.toolUses) };
        break;
      case 'enqueue_tool':
        executor = [...executor, e.toolUse];
        break;
      case 'finish_tools':
        waiting = { kind: 'tools', toolUses: [...executor] };
        executor = [];
        break;
      case 'discard_tools':
        executor = [];
        break;
      case 'run_stop_hooks':
        waiting = { kind: 'stop_hooks' };
        break;
      case 'collect_attachments':
        waiting = { kind: 'attachments' };
        break;
      default:
        break;
    }
  }
  return { waiting, executor };
}
