/**
 * Compares the engine's token estimate with the usage a real transcript recorded (see `docs/context-estimation.md`).
 * For each API call k > 1: the history before call k (after the last compact boundary) is estimated with
 * `tokenCountWithEstimation` and compared with the prompt size the API reported for call k
 * (`input_tokens + cache_creation_input_tokens + cache_read_input_tokens`).
 */
import type { Message, Usage } from '../../../src/messages/types.ts';
import { tokenCountWithEstimation } from '../../../src/rules/tokens.ts';
import type { Transcript } from './transcript-fixture.ts';

export interface CallComparison {
  call: number;
  estimate: number;
  actual: number;
  /** estimate / actual. */
  ratio: number;
  /** False when no reported usage lies after the last compact boundary (the system prompt is then not counted). */
  anchored: boolean;
}

export function promptTokens(usage: Usage): number {
  return usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
}

function afterLastCompactBoundary(messages: Message[]): Message[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.type === 'system' && m.subtype === 'compact_boundary') return messages.slice(i + 1);
  }
  return messages;
}

export function compareCalls(
  transcript: Transcript,
  estimate: (history: readonly Message[]) => number = tokenCountWithEstimation,
): CallComparison[] {
  const out: CallComparison[] = [];
  transcript.calls.forEach((call, k) => {
    if (k === 0) return;
    const history = afterLastCompactBoundary(transcript.messages.slice(0, call.firstIndex));
    const anchored = history.some((m) => m.type === 'assistant' && !m.apiError && m.message.usage !== undefined);
    const est = estimate(history);
    const actual = promptTokens(call.usage);
    out.push({ call: k + 1, estimate: est, actual, ratio: est / actual, anchored });
  });
  return out;
}

export interface Distribution {
  n: number;
  min: number;
  median: number;
  p05: number;
  max: number;
}

export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];
  return { n: sorted.length, min: sorted[0], median: at(0.5), p05: at(0.05), max: sorted[sorted.length - 1] };
}
