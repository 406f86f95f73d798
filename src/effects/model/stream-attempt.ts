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
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ModelStreamItem } from '../deps.ts';
import type { ApiRequest } from './build-request.ts';
import { IncompleteStreamError } from './classify-error.ts';
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
