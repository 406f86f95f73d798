/**
 * Arbitrary loop events of every type, unrelated to any run: what a confused or late outside world might still
 * send after a run has ended (docs/loop.md §9.8).
 */
import fc from 'fast-check';
import type { LoopEvent } from '../../../src/data/events.ts';

const user = { type: 'user' as const, uuid: 'late-r', message: { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'tu-late', content: 'ok' }] } };
const assistant = (apiError?: 'prompt_too_long' | 'max_output_tokens') => ({
  type: 'assistant' as const,
  uuid: 'late-a',
  message: { id: 'late', role: 'assistant' as const, model: 'm', content: [{ type: 'tool_use' as const, id: 'tu-late', name: 'Read', input: {} }], stop_reason: null },
  ...(apiError ? { apiError: { kind: apiError, text: 'late error' } } : {}),
});

export const ALL_EVENT_SAMPLES: LoopEvent[] = [
  { type: 'model_message', message: assistant() },
  { type: 'model_message', message: assistant('prompt_too_long') },
  { type: 'model_message', message: assistant('max_output_tokens') },
  { type: 'model_done', usage: { input_tokens: 250_000, output_tokens: 10 } },
  { type: 'model_overloaded', message: 'Overloaded' },
  { type: 'model_stream_fallback' },
  { type: 'model_error', error: { kind: 'other', message: 'boom' } },
  { type: 'model_error', error: { kind: 'image', message: 'image' } },
  { type: 'abort', reason: 'interrupt' },
  { type: 'abort', reason: 'user_cancel' },
  { type: 'context_layer_result', layer: 'snip', edits: [], tokensFreed: 10 },
  { type: 'autocompact_result', ok: true, postCompactMessages: [] },
  { type: 'autocompact_result', ok: false },
  { type: 'reactive_compact_result', ok: true, postCompactMessages: [] },
  { type: 'collapse_drain_result', committed: 2, edits: [] },
  { type: 'tool_result', toolUseId: 'tu-late', message: user },
  { type: 'tools_finished' },
  { type: 'stop_hooks_result', blockingErrors: ['again'], preventContinuation: false },
  { type: 'stop_hooks_result', blockingErrors: [], preventContinuation: true },
  { type: 'attachments_collected', attachments: [] },
  { type: 'tool_use_summary_ready', summaryId: 'run:s1', summary: 'late' },
];

export const anyEventArb: fc.Arbitrary<LoopEvent> = fc.constantFrom(...ALL_EVENT_SAMPLES);
