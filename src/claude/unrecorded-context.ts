/**
 * Why a re-driven run may miss an automatic compaction by a few tokens, and when that is explained.
 *
 * Claude Code counts context the transcript never records: attachments it adds after tool results (hook output,
 * reminders) are in its in-memory history, so in the rough estimate its autocompact check adds up (docs/loop.md §6),
 * but not in the `.jsonl` file. The engine, driven from the file alone, counts a little less. The API's own count
 * tells how much: the prompt size reported with reply k-1 (input + cache) minus the engine's count before call k-1
 * is the context the transcript did not record at that call.
 *
 * Invariants:
 * - A missed compaction is explained only when it was automatic, the engine's count was below the threshold, and
 *   that count plus the unrecorded context measured at the previous call (never negative) reaches the threshold.
 * - The measure needs a previous call with reported usage and no compaction between the two calls; without one
 *   nothing is explained.
 * - An engine compaction the transcript does not have is never explained here.
 *
 * Evidence: `test/fixtures/claude-code-transcripts/fa812bfe-….jsonl` compacts before call 83 at `preTokens`
 * 167,117; the recorded lines give 166,997 (the reply's usage 166,899 + a 393-character tool result), and the
 * previous call's prompt was 107 tokens larger than the engine's count of it (PostToolUse hooks ran on every call).
 */
import type { Usage } from '../messages/types.ts';
import type { RecordedRun } from './runs.ts';

export interface MissedCompaction {
  /** 1-based model call the transcript compacts before. */
  call: number;
  trigger: string;
  /** The engine's count before that call. */
  engineTokens: number;
  /** Context the transcript does not record, measured at the previous call (null: not measurable). */
  unrecorded: number | null;
  threshold: number;
  explained: boolean;
}

function promptTokens(usage: Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

/** The recorded prompt size of each call (1-based index - 1), and the trigger of the compaction before it, if any. */
function recordedCalls(run: RecordedRun): Array<{ prompt: number | null; compactedBefore: string | null }> {
  const calls: Array<{ prompt: number | null; compactedBefore: string | null }> = [];
  let pending: string | null = null;
  for (const step of run.steps) {
    if (step.kind === 'compact') pending = step.trigger;
    if (step.kind !== 'reply') continue;
    calls.push({ prompt: step.reply.usage ? promptTokens(step.reply.usage) : null, compactedBefore: pending });
    pending = null;
  }
  return calls;
}

/**
 * @example
 * explainMissedCompactions(run, [83], driven.callTokens, 167_000)
 * // [{ call: 83, engineTokens: 166_997, unrecorded: 107, threshold: 167_000, explained: true, trigger: 'auto' }]
 */
export function explainMissedCompactions(run: RecordedRun, missed: readonly number[], callTokens: readonly number[], threshold: number): MissedCompaction[] {
  const calls = recordedCalls(run);
  return missed.map((call) => {
    const trigger = calls[call - 1]?.compactedBefore ?? 'unknown';
    const engineTokens = callTokens[call - 1] ?? 0;
    const previous = calls[call - 2];
    const measurable = call >= 2 && previous !== undefined && previous.prompt !== null && previous.compactedBefore === null && callTokens[call - 2] !== undefined;
    const unrecorded = measurable ? Math.max(0, (previous.prompt as number) - callTokens[call - 2]) : null;
    const explained = trigger === 'auto' && unrecorded !== null && engineTokens < threshold && engineTokens + unrecorded >= threshold;
    return { call, trigger, engineTokens, unrecorded, threshold, explained };
  });
}

/** How a missed compaction reads in a report. */
export function describeMissedCompaction(m: MissedCompaction): string {
  const base = `the transcript compacts before model call ${m.call}, the engine did not`;
  if (!m.explained) return base;
  return (
    `the transcript compacts before model call ${m.call}; the engine counts ${m.engineTokens} of the ${m.threshold} threshold from the ` +
    `recorded lines, and the previous call shows ${m.unrecorded} tokens of context the transcript does not record`
  );
}
