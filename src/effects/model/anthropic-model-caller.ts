/**
 * The production `ModelCaller` (src/effects/deps.ts) on the official `@anthropic-ai/sdk` client, streaming.
 *
 * Invariants (SPEC §1, §4.5):
 * - Yields `model_message` per finished block, then exactly one of `model_done`, `model_overloaded`,
 *   `model_error`; or nothing more at all once the signal is aborted (the interpreter reports the abort).
 * - Stop reason `max_tokens` / `model_context_window_exceeded` adds a `max_output_tokens` API-error message just
 *   before `model_done`. Prompt-too-long, media-size and other 400 answers become an API-error message (raw API
 *   text kept) followed by `model_done` without usage.
 * - The SDK never retries (`maxRetries: 0`); this module retries per `retry-policy.ts`, sleeping through
 *   `options.clock`. A stream that broke after events arrived is retried with the same (streaming) request, and
 *   `model_stream_fallback` is yielded first so the reducer tombstones the broken attempt's messages.
 */
import type { AssistantMessage } from '../../messages/types.ts';
import { apiErrorMessage } from '../../reducer/message-factory.ts';
import type { ModelCallOptions, ModelCaller, ModelStreamItem } from '../deps.ts';
import type { ModelRequest } from '../../reducer/effects.ts';
import { buildApiRequest } from './build-request.ts';
import { classifyModelError } from './classify-error.ts';
import { decideRetry, INITIAL_RETRY_STATE, type RetryState } from './retry-policy.ts';
import { streamAttempt, type MessagesClient } from './stream-attempt.ts';

export interface AnthropicModelCallerOptions {
  apiKey?: string;
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
  /** A ready client (its own retries should be off); when given, the other options are ignored. */
  client?: MessagesClient;
  /** Told before each retry's wait: what failed, which retry this is and how long the wait is. Must not throw. */
  onRetry?: (retry: ModelRetryNotice) => void;
}

export interface ModelRetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  error: { message: string; status?: number };
}

/** Why a call without any credential fails at once (the SDK would only say so per attempt, and attempts retry). */
export const MISSING_CREDENTIALS_MESSAGE =
  'no Anthropic API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN), or pass `apiKey` to createAnthropicModelCaller(), ' +
  'or give query() a `deps.callModel` (turnloop/testing has a scripted one and a loopback fake API)';

const OUTPUT_LIMIT_STOP_REASONS = new Set(['max_tokens', 'model_context_window_exceeded']);

/**
 * @example
 * const callModel = createAnthropicModelCaller({ apiKey: process.env.ANTHROPIC_API_KEY });
 * for await (const item of callModel(request, options)) { ... }
 */
export function createAnthropicModelCaller(options: AnthropicModelCallerOptions = {}): ModelCaller {
  // The SDK is imported on the first call, so that importing turnloop (or building deps) does not load it.
  let client: Promise<MessagesClient> | undefined = options.client ? Promise.resolve(options.client) : undefined;
  const clientOnce = () => (client ??= sdkClient(options));
  return (request, callOptions) => callModel(clientOnce, options, request, callOptions);
}

function hasCredentials(options: AnthropicModelCallerOptions): boolean {
  return Boolean(options.client || options.apiKey || process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_AUTH_TOKEN);
}

async function sdkClient(options: AnthropicModelCallerOptions): Promise<MessagesClient> {
  const { default: Anthropic } = await import('@anthropic-ai/sdk');
  return new Anthropic({
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    ...(options.defaultHeaders === undefined ? {} : { defaultHeaders: options.defaultHeaders }),
    maxRetries: 0,
  });
}

async function* callModel(
  clientOnce: () => Promise<MessagesClient>,
  callerOptions: AnthropicModelCallerOptions,
  request: ModelRequest,
  options: ModelCallOptions,
): AsyncGenerator<ModelStreamItem> {
  if (!hasCredentials(callerOptions)) {
    yield modelError('other', { message: MISSING_CREDENTIALS_MESSAGE });
    return;
  }
  const client = await clientOnce();
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
        const decision = decideRetry(retry, { overloaded: failure.kind === 'overloaded' }, options.retry, Boolean(options.fallbackModel));
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
        callerOptions.onRetry?.({
          attempt: retry.retries,
          maxRetries: options.retry.maxRetries,
          delayMs: decision.delayMs,
          error: { message: failure.message, ...(failure.status === undefined ? {} : { status: failure.status }) },
        });
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
