/**
 * Where the recorder commits its held lines (`session-recorder.ts`): the effects of a step that must not start before
 * the log is on disk up to that step.
 */
import type { Effect } from '../data/effects.ts';

/**
 * Whether the log is committed before the interpreter executes an effect: before every model call (so each request
 * goes out with the log complete up to it, one write per turn at least), before work that may change the world
 * outside the process (a tool that is not concurrency-safe, a stop hook: user code), and at the end. Read-only
 * tools, observers and bookkeeping may run with their lines held: after a crash they are simply done again.
 * The switch names only the effects that can commit, so an effect that cannot (most of a turn's ten) costs five
 * comparisons instead of one per effect type; `NEVER_COMMITS` still makes a new effect type fail to compile until it
 * is placed on one side or the other. An index loop, not `for…of`: no iterator per step (this runs for every step,
 * and in a short run mostly before V8 has optimised it).
 */
export function commitsBefore(effects: readonly Effect[]): boolean {
  for (let i = 0; i < effects.length; i++) {
    const effect = effects[i];
    switch (effect.type) {
      case 'call_model':
      case 'run_stop_hooks':
      case 'terminated':
        return true;
      case 'run_tools':
        if (effect.batches.some((batch) => !batch.concurrent)) return true;
        break;
      case 'enqueue_tool':
        if (!effect.concurrencySafe) return true;
        break;
      default:
        // Type-level only (no property read): whatever reaches here is listed in `NEVER_COMMITS`.
        effect satisfies { type: keyof typeof NEVER_COMMITS };
    }
  }
  return false;
}

/** The effects that never make the recorder commit (type-level only: every effect type is here or in the switch). */
const NEVER_COMMITS = {
  emit: true,
  request_start: true,
  context_layer: true,
  autocompact: true,
  reactive_compact: true,
  collapse_drain: true,
  finish_tools: true,
  discard_tools: true,
  run_stop_failure_hooks: true,
  run_post_sampling_hooks: true,
  collect_attachments: true,
  start_tool_use_summary: true,
} as const satisfies Record<Exclude<Effect['type'], 'call_model' | 'run_stop_hooks' | 'terminated' | 'run_tools' | 'enqueue_tool'>, true>;
