/**
 * The request of the transport's non-streaming fallback (after a stream broke), as the original sends it: the
 * streamed request with `stream: false`, `max_tokens` capped at what a non-streaming reply may take, a thinking
 * budget kept below that cap, and an explicit per-attempt timeout. Pure.
 *
 * Why the timeout: without one, `@anthropic-ai/sdk` refuses any non-streaming request whose `max_tokens` could take
 * longer than its 10-minute default ("Streaming is strongly recommended..."), which is every request at the default
 * 32,000 tokens. Given a timeout the SDK sends the request as it is; the original caps `max_tokens` at 64,000 for
 * the API's own limit on non-streaming requests (docs/loop.md §4.5).
 *
 * Original: `services/api/claude.ts:807-811` (timeout 300 s, 120 s in remote sessions, `API_TIMEOUT_MS` wins),
 * `claude.ts:857-872` (cap + timeout on the create call), `claude.ts:3354` (64,000), `claude.ts:3364-3393`
 * (thinking budget at most cap − 1).
 */
import type { ApiRequest, ApiRequestBody } from './build-request.ts';

/** Most output tokens a non-streaming fallback request asks for. */
export const NON_STREAMING_MAX_TOKENS = 64_000;
/** Per-attempt timeout of a non-streaming fallback request, in ms (the original's local default). */
export const NON_STREAMING_TIMEOUT_MS = 300_000;

export type NonStreamingBody = Omit<ApiRequestBody, 'stream'> & { stream: false };

export interface NonStreamingRequest {
  body: NonStreamingBody;
  headers: Record<string, string>;
  /** Passed to the SDK as the request's `timeout`. */
  timeoutMs: number;
}

/**
 * @example
 * nonStreamingRequest(streamed).body.max_tokens // min(streamed max_tokens, 64,000)
 */
export function nonStreamingRequest(request: ApiRequest, timeoutMs: number = NON_STREAMING_TIMEOUT_MS): NonStreamingRequest {
  const maxTokens = Math.min(request.body.max_tokens, NON_STREAMING_MAX_TOKENS);
  const body: NonStreamingBody = { ...request.body, max_tokens: maxTokens, stream: false };
  const thinking = request.body.thinking;
  if (thinking?.type === 'enabled' && thinking.budget_tokens > maxTokens - 1) {
    // The API wants max_tokens > budget_tokens.
    body.thinking = { ...thinking, budget_tokens: maxTokens - 1 };
  }
  return { body, headers: request.headers, timeoutMs };
}
