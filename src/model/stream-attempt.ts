/**
 * One streamed request: passes every raw event through, releases a message per finished block, and reports how
 * the attempt ended. It never retries and never decides what an error means (see `classify-error.ts`).
 *
 * Invariants:
 * - Yields `stream_event` for each raw event before the messages it releases.
 * - Yields nothing once `signal` is aborted; an abort ends the attempt as `aborted`.
 * - A stream that ends without `message_stop` ends as a failure (`IncompleteStreamError`), with `events` telling
 *   whether anything had arrived (which makes the retry a streaming fallback).
 * - A failure releases the blocks that had finished before it; a block that never finished never becomes a message.
 * - `nonStreamingAttempt` sends the same request with `stream: false` (the transport's fallback after a broken
 *   stream), shaped as `non-streaming-request.ts` says (explicit timeout, capped `max_tokens`), and releases the
 *   reply's blocks as the streamed path would, through the same accumulator.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelStreamItem } from '../data/deps.ts';
import type { ApiRequest } from './build-request.ts';
import { IncompleteStreamError } from './classify-error.ts';
import { nonStreamingRequest } from './non-streaming-request.ts';
import { StreamAccumulator } from './stream-to-messages.ts';

export type AttemptOutcome =
  | { kind: 'completed'; accumulator: StreamAccumulator }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: unknown; events: number };

/** The part of the SDK client the adapter uses (tests may pass a real client pointed at the fake API). */
export type MessagesClient = Pick<Anthropic, 'messages'>;

export async function* streamAttempt(
  client: MessagesClient,
  request: ApiRequest,
  options: { signal: AbortSignal; newId: () => string },
): AsyncGenerator<ModelStreamItem, AttemptOutcome> {
  const { signal } = options;
  const accumulator = new StreamAccumulator(options.newId, request.body.model);
  try {
    const stream = await client.messages.create(request.body as unknown as Anthropic.MessageCreateParamsStreaming, {
      signal,
      headers: request.headers,
    });
    for await (const event of stream) {
      if (signal.aborted) return { kind: 'aborted' };
      yield { kind: 'stream_event', event };
      for (const message of accumulator.push(event)) {
        if (signal.aborted) return { kind: 'aborted' };
        yield { kind: 'event', event: { type: 'model_message', message } };
      }
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    // A block that finished before the failure is a message like any other: the loop must see its tool_use to
    // answer it (fallback, model error) or to tombstone it (streaming fallback).
    for (const message of accumulator.flush()) yield { kind: 'event', event: { type: 'model_message', message } };
    return { kind: 'failed', error, events: accumulator.events };
  }
  if (signal.aborted) return { kind: 'aborted' };
  for (const message of accumulator.flush()) yield { kind: 'event', event: { type: 'model_message', message } };
  if (!accumulator.complete) return { kind: 'failed', error: new IncompleteStreamError(), events: accumulator.events };
  return { kind: 'completed', accumulator };
}

/**
 * The same request without streaming: one `Message`, replayed through the accumulator as the events a stream of it
 * would have had, so its messages (one per block, ids, usage, stop reason) match the streamed path's.
 */
export async function* nonStreamingAttempt(
  client: MessagesClient,
  request: ApiRequest,
  options: { signal: AbortSignal; newId: () => string },
): AsyncGenerator<ModelStreamItem, AttemptOutcome> {
  const { signal } = options;
  const accumulator = new StreamAccumulator(options.newId, request.body.model);
  let message: Anthropic.Message;
  try {
    const fallback = nonStreamingRequest(request);
    const body = fallback.body as unknown as Anthropic.MessageCreateParamsNonStreaming;
    // The explicit timeout is what lets the SDK send a non-streaming request of more than ~21k output tokens.
    message = await client.messages.create(body, { signal, headers: fallback.headers, timeout: fallback.timeoutMs });
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'failed', error, events: 0 };
  }
  if (signal.aborted) return { kind: 'aborted' };
  for (const event of messageAsStreamEvents(message)) {
    for (const released of accumulator.push(event)) yield { kind: 'event', event: { type: 'model_message', message: released } };
  }
  for (const released of accumulator.flush()) yield { kind: 'event', event: { type: 'model_message', message: released } };
  return { kind: 'completed', accumulator };
}

/** The events a stream of `message` would carry: start, one start/stop per block (content whole), delta, stop. */
function messageAsStreamEvents(message: Anthropic.Message): unknown[] {
  const { content, stop_reason, stop_sequence, usage, ...rest } = message;
  const blocks = content.flatMap((block, index) => [
    { type: 'content_block_start', index, content_block: block },
    { type: 'content_block_stop', index },
  ]);
  return [
    { type: 'message_start', message: { ...rest, content: [], stop_reason: null, stop_sequence: null, usage } },
    ...blocks,
    { type: 'message_delta', delta: { stop_reason, stop_sequence }, usage: { output_tokens: usage.output_tokens } },
    { type: 'message_stop' },
  ];
}
