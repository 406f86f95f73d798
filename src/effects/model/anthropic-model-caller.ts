/**
 * The production `ModelCaller` (src/effects/deps.ts) on the official `@anthropic-ai/sdk` client, streaming.
 *
 * Invariants (SPEC §1, §4.5):
 * - Yields `model_message` per finished block, then exactly one of `model_done`, `model_overloaded`,
 *   `model_error`; or nothing more at all once the signal is aborted (the interpreter reports the abort).
 * - Stop reason `max_tokens` / `model_context_window_exceeded` adds a `max_output_tokens` API-error message just
 *   before `model_done`. Prompt-too-long, media-size and other 400 answers become an API-error message (raw API
 *   text kept) followed by `model_done` without usage.
 * - The SDK never retries (`maxRetries: 0`); this module retries per `retry-policy.ts` (backoff, or the API's
 *   `retry-after`), sleeping through `options.clock`. A stream that broke after events arrived is retried with the same (streaming) request, and
 *   `model_stream_fallback` is yielded first so the reducer tombstones the broken attempt's messages.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { AssistantMessage } from '../../messages/types.ts';
import { apiErrorMessage } from '../../reducer/message-factory.ts';
import type { ModelCallOptions, ModelCaller, ModelStreamItem } from '../deps.ts';
import type { ModelRequest } from '../../reducer/effects.ts';
import { buildApiRequest } from './build-request.ts';
import { classifyModelError } from './classify-error.ts';
import { decideRetry, INITIAL_RETRY_STATE, retryAfterMs, type RetryState } from './retry-policy.ts';
import { streamAttempt, type MessagesClient } from './stream-attempt.ts';

export interface AnthropicModelCallerOptions {
  apiKey?: string;
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
  /** A ready client (its own retries should be off); when given, the other options are ignored. */
  client?: MessagesClient;
}

const OUTPUT_LIMIT_STOP_REASONS = new Set(['max_tokens', 'model_context_window_exceeded']);

/**
 * @example
 * const callModel = createAnthropicModelCaller({ apiKey: process.env.ANTHROPIC_API_KEY });
 * for await (const item of callModel(request, options)) { ... }
 */
export function createAnthropicModelCaller(options: AnthropicModelCallerOptions = {}): ModelCaller {
  const client =
    options.client ??
    new Anthropic({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: options.defaultHeaders }),
      maxRetries: 0,
    });
  return (request, callOptions) => callModel(client, request, callOptions);
}

async function* callModel(client: MessagesClient, request: ModelRequest, options: ModelCallOptions): AsyncGenerator<ModelStreamItem> {
  const apiRequest = buildApiRequest(request, options);
  let retry: RetryState = INITIAL_RETRY_STATE;
  while (!options.signal.aborted) {
    // `yield*` forwards an early `return()` of our consumer to the attempt, which closes the SDK stream.
    const outcome = yield* streamAttempt(client, apiRequest, options);
    if (outcome.kind === 'aborted' || options.signal.aborted) return;
    if (outcome.kind === 'completed') {
      const { accumulator } = outcome;
      const stopReason = accumulator.stopReason;
      if (stopReason !== null && OUTPUT_LIMIT_STOP_REASONS.has(stopReason)) {
        yield modelMessage(outputLimitMessage(options.newId(), accumulator.responseModel, stopReason, request.max_tokens));
      }
      const usage = accumulator.usage;
      yield { kind: 'event', event: usage ? { type: 'model_done', usage, stopReason } : { type: 'model_done', stopReason } };
      return;
    }

    const failure = classifyModelError(outcome.error);
    switch (failure.kind) {
      case 'prompt_too_long':
      case 'media_size':
      case 'invalid_request':
        yield modelMessage(apiErrorMessage(options.newId(), request.model, failure.kind, failure.text));
        yield { kind: 'event', event: { type: 'model_done', stopReason: null } };
        return;
      case 'image':
      case 'fatal':
        yield modelError(failure.kind === 'image' ? 'image' : 'other', failure);
        return;
      case 'overloaded':
      case 'retryable': {
        const wait = retryAfterMs(outcome.error, options.clock.now());
        const failed = { overloaded: failure.kind === 'overloaded', ...(wait === undefined ? {} : { retryAfterMs: wait }) };
        const decision = decideRetry(retry, failed, options.retry, Boolean(options.fallbackModel));
        if (decision.action === 'fallback') {
          yield { kind: 'event', event: { type: 'model_overloaded', message: failure.message } };
          return;
        }
        if (decision.action === 'give_up') {
          yield modelError('other', failure);
          return;
        }
        if (outcome.events > 0) yield { kind: 'event', event: { type: 'model_stream_fallback' } };
        retry = decision.state;
        try {
          await options.clock.sleep(decision.delayMs, options.signal);
        } catch {
          if (options.signal.aborted) return;
        }
      }
    }
  }
}

function modelMessage(message: AssistantMessage): ModelStreamItem {
  return { kind: 'event', event: { type: 'model_message', message } };
}

function modelError(kind: 'image' | 'other', failure: { message: string; status?: number; type?: string }): ModelStreamItem {
  const error: { kind: 'image' | 'other'; message: string; status?: number; type?: string } = { kind, message: failure.message };
  if (failure.status !== undefined) error.status = failure.status;
  if (failure.type !== undefined) error.type = failure.type;
  return { kind: 'event', event: { type: 'model_error', error } };
}

function outputLimitMessage(uuid: string, model: string, stopReason: string, maxTokens: number): AssistantMessage {
  const text =
    stopReason === 'max_tokens'
      ? `The response was cut off at the output limit of ${maxTokens} tokens.`
      : 'The response was cut off because the model context window is full.';
  return apiErrorMessage(uuid, model, 'max_output_tokens', text);
}
