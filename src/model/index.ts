/** The Anthropic model adapter: the production `ModelCaller` and its pure parts. */
export { createAnthropicModelCaller, MISSING_CREDENTIALS_MESSAGE, type AnthropicModelCallerOptions, type ModelRetryNotice } from './anthropic-model-caller.ts';
export { toApiMessages, attachmentText, type ApiMessageParam } from './to-api-messages.ts';
export { buildApiRequest, QUERY_SOURCE_HEADER, TASK_BUDGET_BETA, INTERLEAVED_THINKING_BETA, MAX_CACHE_BREAKPOINTS, type ApiRequest, type ApiRequestBody } from './build-request.ts';
export { StreamAccumulator } from './stream-to-messages.ts';
export { classifyModelError, IncompleteStreamError, type ErrorClass } from './classify-error.ts';
export { backoffDelay, decideRetry, retryAfterMs, INITIAL_RETRY_STATE, type RetryDecision, type RetryState } from './retry-policy.ts';
export { streamAttempt, type AttemptOutcome, type MessagesClient } from './stream-attempt.ts';
