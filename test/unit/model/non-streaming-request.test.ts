/**
 * The non-streaming fallback request, as the original shapes it (Claude Code 2.1.88 `services/api/claude.ts`):
 * `max_tokens` capped at 64,000 (3354), a thinking budget kept below the cap (3364-3393), a 300 s timeout (807-811).
 */
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../src/model/build-request.ts';
import { NON_STREAMING_MAX_TOKENS, NON_STREAMING_TIMEOUT_MS, nonStreamingRequest } from '../../../src/model/non-streaming-request.ts';

const streamed = (maxTokens: number, thinking?: ApiRequest['body']['thinking']): ApiRequest => ({
  body: { model: 'm', max_tokens: maxTokens, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, ...(thinking ? { thinking } : {}) },
  headers: { 'x-test': '1' },
});

describe('non-streaming fallback request (claude.ts:807-811, 3354, 3364-3393)', () => {
  it('is the streamed request with stream false, a 300 s timeout and the same headers', () => {
    const request = nonStreamingRequest(streamed(32_000));
    expect(request.body).toEqual({ ...streamed(32_000).body, stream: false });
    expect(request.headers).toEqual({ 'x-test': '1' });
    expect(request.timeoutMs).toBe(NON_STREAMING_TIMEOUT_MS);
    expect(NON_STREAMING_TIMEOUT_MS).toBe(300_000);
  });

  it('caps max_tokens at 64,000 and keeps a thinking budget at most one below the cap', () => {
    const request = nonStreamingRequest(streamed(128_000, { type: 'enabled', budget_tokens: 100_000 }));
    expect(request.body.max_tokens).toBe(NON_STREAMING_MAX_TOKENS);
    expect(request.body.thinking).toEqual({ type: 'enabled', budget_tokens: 63_999 });
  });

  it('leaves a budget already under the cap, and other thinking modes, as they were', () => {
    expect(nonStreamingRequest(streamed(128_000, { type: 'enabled', budget_tokens: 10_000 })).body.thinking).toEqual({ type: 'enabled', budget_tokens: 10_000 });
    expect(nonStreamingRequest(streamed(128_000, { type: 'adaptive' })).body.thinking).toEqual({ type: 'adaptive' });
  });
});
