/**
 * The production `ModelCaller` (src/data/deps.ts) on the official `@anthropic-ai/sdk` client, streaming.
 *
 * Invariants (docs/loop.md §1, §4.5 "API errors are messages"):
 * - Yields `model_message` per finished block, then exactly one of `model_done` or `model_overloaded` (the latter
 *   only when a fallback model is set); or nothing more at all once the signal is aborted (the interpreter reports
 *   the abort). It never yields `model_error` and never throws for an API failure: `model_error` is left for
 *   errors thrown by a bug, which the interpreter catches.
 * - Every API failure it gives up on (401/403/404, 429/529 without a fallback, 5xx and connection errors after the
 *   retries, any 400) becomes ONE API-error message followed by `model_done` without usage. Prompt-too-long and
 *   media-size answers get their own kinds (the loop may recover them); the raw API text is kept.
 * - Stop reason `max_tokens` / `model_context_window_exceeded` adds a `max_output_tokens` API-error message, and
 *   `refusal` an API-error message with `errorType: 'refusal'`, just before `model_done`.
 * - The SDK never retries (`maxRetries: 0`); this module retries per `retry-policy.ts` (backoff, or the API's
 *   `retry-after`), sleeping through `options.clock`. A stream that broke after events arrived is retried at once
 *   without streaming (the original transport's fallback), and every later attempt of the call too;
 *   `model_stream_fallback` is yielded first so the reducer tombstones the broken attempt's messages.
 */
import type { ApiErrorKind, AssistantMessage } from '../messages/types.ts';
import { apiErrorMessage } from '../messages/message-factory.ts';
import type { ModelCallOptions, ModelCaller, ModelStreamItem } from '../data/deps.ts';
import type { ModelRequest } from '../data/effects.ts';
import { buildApiRequest } from './build-request.ts';
import { classifyModelError, isUnreachable, type ErrorClass } from './classify-error.ts';
import { createApiMessageConverter, type ApiMessageConverter } from './incremental-api-messages.ts';
import { checkBaseUrl, endpointOf, InvalidBaseUrlError } from './base-url.ts';
import { decideRetry, INITIAL_RETRY_STATE, retryAfterMs, type RetryState } from './retry-policy.ts';
import { nonStreamingAttempt, streamAttempt, type MessagesClient } from './stream-attempt.ts';

export interface AnthropicModelCallerOptions {
  apiKey?: string;
  baseURL?: string;
  defaultHeaders?: Record<string, string>;
  /** A ready client (its own retries should be off); when given, the other options are ignored. */
  client?: MessagesClient;
  /** Told before each retry's wait: what failed, which retry this is and how long the wait is. Must not throw. */
  onRetry?: (retry: ModelRetryNotice) => void;
  /**
   * Retries for a connection that is refused or a host that does not resolve (no HTTP answer at all); default: the
   * retry policy's `maxRetries`, as the original. `turnloop run` passes a smaller number (Extension
   * `cliUnreachableRetries`) so that a wrong URL fails in seconds.
   */
  maxUnreachableRetries?: number;
  /**
   * Retries of an authentication failure (401). Default: the retry policy's `maxRetries`, as the original (its
   * credentials may be refreshed between attempts). `turnloop run` passes 0 (Extension `cliUnreachableRetries`):
   * at a terminal a 401 is a wrong key, which no wait fixes.
   */
  maxAuthRetries?: number;
  /**
   * The `fetch` the SDK client sends its requests with. Default: Node's global `fetch`, which follows what the
   * process set up for it (an undici global dispatcher: a proxy agent, custom TLS or connection settings). The
   * headless mode passes `nodeHttpFetch` (node-http-fetch.ts: node:http, which spares a fresh process undici's
   * start-up; docs/agent-sdk.md, "The model client's fetch").
   */
  fetch?: typeof fetch;
}

export interface ModelRetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMs: number;
  /** `url`: where the request went. `cause`: why no HTTP answer came (refused, unresolvable host...), if so. */
  error: { message: string; status?: number; url: string; cause?: string };
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
  // A malformed URL given in code is refused here, before any request (InvalidBaseUrlError).
  if (options.baseURL !== undefined && !options.client) checkBaseUrl(options.baseURL, 'baseURL');
  // The SDK is imported on the first call, so that importing turnloop (or building deps) does not load it.
  let client: Promise<MessagesClient> | undefined = options.client ? Promise.resolve(options.client) : undefined;
  const clientOnce = () => (client ??= sdkClient(options));
  const toMessages = createApiMessageConverter();
  return (request, callOptions) => callModel(clientOnce, options, request, callOptions, toMessages);
}

function hasCredentials(options: AnthropicModelCallerOptions): boolean {
  return Boolean(options.client || options.apiKey || process.env.ANTHROPIC_API_KEY || process.env.ANTHROPIC_AUTH_TOKEN);
}

async function sdkClient(options: AnthropicModelCallerOptions): Promise<MessagesClient> {
  const { createMessagesClient } = await import('./messages-client.ts');
  return createMessagesClient({
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
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
  toMessages: ApiMessageConverter,
): AsyncGenerator<ModelStreamItem> {
  if (!hasCredentials(callerOptions)) {
    yield* apiErrorEnding(options, request.model, 'other', { kind: 'other', text: MISSING_CREDENTIALS_MESSAGE });
    return;
  }
  const baseURL = callerOptions.client ? callerOptions.baseURL : (callerOptions.baseURL ?? envBaseUrl());
  if (baseURL instanceof InvalidBaseUrlError) {
    yield* apiErrorEnding(options, request.model, 'other', { kind: 'other', text: baseURL.message });
    return;
  }
  const url = endpointOf(baseURL);
  const client = await clientOnce();
  const apiRequest = buildApiRequest(request, { ...options, toMessages });
  let retry: RetryState = INITIAL_RETRY_STATE;
  let streaming = true;
  while (!options.signal.aborted) {
    // `yield*` forwards an early `return()` of our consumer to the attempt, which closes the SDK stream.
    const outcome = streaming ? yield* streamAttempt(client, apiRequest, options) : yield* nonStreamingAttempt(client, apiRequest, options);
    if (outcome.kind === 'aborted' || options.signal.aborted) return;
    if (outcome.kind === 'completed') {
      const { accumulator } = outcome;
      const stopReason = accumulator.stopReason;
      if (stopReason !== null && OUTPUT_LIMIT_STOP_REASONS.has(stopReason)) {
        yield modelMessage(outputLimitMessage(options.newId(), accumulator.responseModel, stopReason, request.max_tokens));
      }
      if (stopReason === 'refusal') {
        const text = 'The model declined to answer this request (stop reason: refusal).';
        yield modelMessage(apiErrorMessage(options.newId(), accumulator.responseModel, 'other', text, { errorType: 'refusal' }));
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
      case 'other':
        yield* apiErrorEnding(options, request.model, failure.kind, failure);
        return;
      case 'overloaded':
      case 'retryable': {
        const wait = retryAfterMs(outcome.error, options.clock.now());
        const failed = { overloaded: failure.kind === 'overloaded', ...(wait === undefined ? {} : { retryAfterMs: wait }) };
        const unreachableLimit = isUnreachable(failure)
          ? callerOptions.maxUnreachableRetries
          : failure.status === 401
            ? callerOptions.maxAuthRetries
            : undefined;
        const decision =
          unreachableLimit !== undefined && retry.retries >= unreachableLimit
            ? ({ action: 'give_up' } as const)
            : decideRetry(retry, failed, options.retry, Boolean(options.fallbackModel));
        if (decision.action === 'fallback') {
          yield { kind: 'event', event: { type: 'model_overloaded', message: failure.text } };
          return;
        }
        if (decision.action === 'give_up') {
          yield* apiErrorEnding(options, request.model, 'other', failure, retry.retries, url);
          return;
        }
        if (streaming && outcome.events > 0) {
          // A stream that broke after events arrived: the transport's fallback, the same request without streaming,
          // at once (docs/loop.md §4.5 "Streaming fallback"); the loop tombstones what the broken attempt showed.
          yield { kind: 'event', event: { type: 'model_stream_fallback' } };
          streaming = false;
          continue;
        }
        retry = decision.state;
        callerOptions.onRetry?.({
          attempt: retry.retries,
          maxRetries: Math.min(unreachableLimit ?? Infinity, options.retry.maxRetries),
          delayMs: decision.delayMs,
          error: {
            message: failure.text,
            ...(failure.status === undefined ? {} : { status: failure.status }),
            url,
            ...(failure.connection === undefined ? {} : { cause: failure.connection.cause }),
          },
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

/** The end of a call the API failed for good: one API-error message, then `model_done` without usage. */
function* apiErrorEnding(
  options: ModelCallOptions,
  model: string,
  kind: ApiErrorKind,
  failure: ErrorClass,
  retries = 0,
  url?: string,
): Generator<ModelStreamItem> {
  const tags = { ...(failure.status === undefined ? {} : { status: failure.status }), ...(failure.type === undefined ? {} : { errorType: failure.type }) };
  // Recoverable kinds keep the raw API text (the loop and the user read it); the others say what failed and how.
  const text = kind === 'other' ? describeFailure(failure, retries, url) : failure.text;
  yield modelMessage(apiErrorMessage(options.newId(), model, kind, text, tags));
  yield { kind: 'event', event: { type: 'model_done', stopReason: null } };
}

function describeFailure(failure: ErrorClass, retries: number, url: string | undefined): string {
  const what = [failure.status, failure.type].filter((part) => part !== undefined).join(' ');
  const after = retries > 0 ? ` (gave up after ${retries} ${retries === 1 ? 'retry' : 'retries'})` : '';
  // No HTTP answer at all: say where the request went and what the network said.
  const where = failure.connection && url ? ` ${url}: ${failure.connection.cause}` : '';
  return `API error${what ? ` ${what}` : ''}: ${where ? failure.text.replace(/\.$/, '') : failure.text}${where}${after}`;
}

/** The base URL the SDK would read from the environment, checked; undefined when none is set. */
function envBaseUrl(): string | InvalidBaseUrlError | undefined {
  const value = process.env.ANTHROPIC_BASE_URL;
  if (value === undefined || value === '') return undefined;
  try {
    return checkBaseUrl(value, 'ANTHROPIC_BASE_URL');
  } catch (error) {
    if (error instanceof InvalidBaseUrlError) return error;
    throw error;
  }
}

function modelMessage(message: AssistantMessage): ModelStreamItem {
  return { kind: 'event', event: { type: 'model_message', message } };
}

function outputLimitMessage(uuid: string, model: string, stopReason: string, maxTokens: number): AssistantMessage {
  const text =
    stopReason === 'max_tokens'
      ? `The response was cut off at the output limit of ${maxTokens} tokens.`
      : 'The response was cut off because the model context window is full.';
  return apiErrorMessage(uuid, model, 'max_output_tokens', text);
}
