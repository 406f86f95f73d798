/**
 * What a recorded run says happened, in the engine's terms: the terminal, the number of model calls, where the
 * user interrupted and before which model calls Claude Code compacted automatically. Pure.
 *
 * One source for both consumers: `check.ts` compares the pure re-drive with it, `scenario.ts` writes it as the
 * `expect` (and `abort`) of the imported simulate scenario.
 *
 * Invariants:
 * - A call interrupted before any output, or a call the transcript stops in front of, still counts as a model call
 *   (the engine started it); a reply interrupted mid-stream is its own call.
 * - Only automatic compactions count; a manual `/compact` sits between runs.
 */
import type { RecordedRun } from './runs.ts';

export type RecordedTerminal = 'completed' | 'aborted_tools' | 'aborted_streaming';

export interface RecordedOutcome {
  /** `null` when the transcript stops mid-run (nothing ended it). */
  terminal: RecordedTerminal | null;
  modelCalls: number;
  /** Recorded replies (what a model script can serve). */
  replies: number;
  /** Where the user interrupted: while model call n streamed (`sampling`), or in the tools after call n. */
  interrupt: { during: 'sampling' | 'tools'; atModelCall: number } | null;
  /** Model calls (1-based) before which Claude Code compacted automatically. */
  autocompactBeforeCalls: number[];
}

/** @example recordedOutcome(run) // { terminal: 'aborted_tools', modelCalls: 1, interrupt: { during: 'tools', atModelCall: 1 }, ... } */
export function recordedOutcome(run: RecordedRun): RecordedOutcome {
  let replies = 0;
  const autocompactBeforeCalls: number[] = [];
  for (const s of run.steps) {
    if (s.kind === 'reply') replies += 1;
    else if (s.kind === 'compact' && s.trigger !== 'manual') autocompactBeforeCalls.push(replies + 1);
  }
  const endsOnReply = run.steps[run.steps.length - 1]?.kind === 'reply';
  const callWithoutReply = (run.ending === 'aborted_streaming' || run.ending === 'incomplete') && !endsOnReply ? 1 : 0;
  const modelCalls = replies + callWithoutReply;
  const interrupt =
    run.ending === 'aborted_tools' ? { during: 'tools' as const, atModelCall: replies } : run.ending === 'aborted_streaming' ? { during: 'sampling' as const, atModelCall: modelCalls } : null;
  return { terminal: run.ending === 'incomplete' ? null : run.ending, modelCalls, replies, interrupt, autocompactBeforeCalls };
}
