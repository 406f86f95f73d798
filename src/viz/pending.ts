/**
 * Which effects are still waiting for their answer event, for the viewer's "pending effects" panel. Effects
 * marked fire-and-forget in `src/reducer/effects.ts` are never pending; the others are answered by the events
 * below (docs/loop.md §4, the effect catalogue). Pure; for display only.
 */
import type { Effect, EffectType } from '../reducer/effects.ts';
import type { LoopEvent } from '../reducer/events.ts';

const FIRE_AND_FORGET: ReadonlySet<EffectType> = new Set([
  'emit',
  'request_start',
  'run_stop_failure_hooks',
  'run_post_sampling_hooks',
  'discard_tools',
  'terminated',
]);

/** Does `event` answer `effect`? */
function answers(effect: Effect, event: LoopEvent): boolean {
  switch (effect.type) {
    case 'call_model':
      return ['model_done', 'model_error', 'model_overloaded', 'abort'].includes(event.type);
    case 'context_layer':
      return event.type === 'context_layer_result';
    case 'autocompact':
      return event.type === 'autocompact_result';
    case 'reactive_compact':
      return event.type === 'reactive_compact_result';
    case 'collapse_drain':
      return event.type === 'collapse_drain_result';
    case 'run_tools':
    case 'finish_tools':
      return event.type === 'tools_finished';
    case 'enqueue_tool':
      return (event.type === 'tool_result' && event.toolUseId === effect.toolUse.id) || event.type === 'tools_finished';
    case 'run_stop_hooks':
      return event.type === 'stop_hooks_result' || event.type === 'abort';
    case 'collect_attachments':
      return event.type === 'attachments_collected' || event.type === 'abort';
    case 'start_tool_use_summary':
      return event.type === 'tool_use_summary_ready' && event.summaryId === effect.summaryId;
    default:
      return false;
  }
}

/**
 * The pending effects after one step: those pending before that `event` did not answer, plus the step's new
 * effects that await an answer. A finished run has none; `discard_tools` drops the streaming executor's work.
 */
export function nextPending(pending: readonly Effect[], event: LoopEvent | null, produced: readonly Effect[], done: boolean): Effect[] {
  if (done) return [];
  let still = event ? pending.filter((effect) => !answers(effect, event)) : pending.slice();
  if (produced.some((e) => e.type === 'discard_tools')) {
    still = still.filter((e) => e.type !== 'enqueue_tool' && e.type !== 'finish_tools');
  }
  return [...still, ...produced.filter((effect) => !FIRE_AND_FORGET.has(effect.type))];
}
