/**
 * Rate limits and overload as the real API sends them (429 with `retry-after` and `anthropic-ratelimit-*`
 * headers, 529 `overloaded_error`, an SSE `error` event in the middle of a stream), and the adapter obeying
 * `retry-after` instead of its own backoff.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../../../src/model/retry-policy.ts';
import { eventTypes, fakeApi, fakeClock, modelMessages, runCall } from './helpers.ts';

const ok = { content: [{ type: 'text' as const, text: 'recovered' }] };

describe('429 rate_limit_error', () => {
  it('carries the real body and the retry-after and anthropic-ratelimit-* headers when the script gives only the status', async () => {
    const api = await fakeApi({ model: [{ status: 429 }] });
    const response = await fetch(`${api.baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    for (const bucket of ['requests', 'tokens', 'input-tokens', 'output-tokens']) {
      expect(Number(response.headers.get(`anthropic-ratelimit-${bucket}-limit`))).toBeGreaterThan(0);
      expect(response.headers.get(`anthropic-ratelimit-${bucket}-remaining`)).toMatch(/^\d+$/);
      expect(Date.parse(response.headers.get(`anthropic-ratelimit-${bucket}-reset`) ?? '')).not.toBeNaN();
    }
    const body = (await response.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.message).toMatch(/^This request would exceed the rate limit for your organization .* input tokens per minute\./);
  });

  it('is retried after the retry-after the API asked for, not after the backoff', async () => {
    const clock = fakeClock();
    const { events, api } = await runCall({ model: [{ status: 429 }, { status: 429, headers: { 'retry-after': '7' } }, ok] }, undefined, { clock });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].message.content).toEqual(ok.content);
    expect(api.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1_000, 7_000]);
  });

  it('falls back to the backoff when there is no retry-after', async () => {
    const clock = fakeClock();
    await runCall({ model: [{ status: 429, headers: {} }, ok] }, undefined, { clock });
    expect(clock.sleeps).toEqual([100]);
  });

  it('reads retry-after-ms first, then seconds, then an HTTP date against the clock; ignores junk and the past', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    const headers = (h: Record<string, string>) => ({ headers: new Headers(h) });
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': '2.5' }), now)).toBe(2_500);
    expect(retryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now)).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs({ headers: { 'retry-after': '3' } }, now)).toBe(3_000);
    expect(retryAfterMs(new Error('no headers'), now)).toBeUndefined();
  });
});

describe('529 overloaded_error', () => {
  it('has the real body when the script gives only the status, and is retried', async () => {
    const api = await fakeApi({ model: [{ status: 529 }] });
    const sdk = new Anthropic({ apiKey: 'k', baseURL: api.baseURL, maxRetries: 0 });
    await expect(sdk.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true })).rejects.toMatchObject({
      status: 529,
      error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    });
    const clock = fakeClock();
    const { events } = await runCall({ model: [{ status: 529 }, ok] }, undefined, { clock });
    expect(modelMessages(events)[0].message.content).toEqual(ok.content);
    expect(clock.sleeps).toEqual([100]);
  });
});

describe('an error event in the middle of an SSE stream', () => {
  it('is sent in the wire format of the real API and ends the stream', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'partial answer that breaks' }], stream_error: { after_events: 3 } }] });
    const response = await fetch(`${api.baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true }),
    });
    const text = await response.text();
    const events = text.trim().split('\n\n');
    expect(events).toHaveLength(4);
    expect(events[3]).toBe('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
  });

  it('is an overload to the adapter: the broken attempt is tombstoned and the request retried', async () => {
    const clock = fakeClock();
    const broken = { content: [{ type: 'text' as const, text: 'first' }, { type: 'text' as const, text: 'second' }], stream_error: { after_events: 5 } };
    const { events, api } = await runCall({ model: [broken, ok] }, undefined, { clock });
    expect(api.requests).toHaveLength(2);
    expect(eventTypes(events)).toEqual(['model_message', 'model_stream_fallback', 'model_message', 'model_done']);
    expect(modelMessages(events)[0].message.content).toEqual([{ type: 'text', text: 'first' }]);
    expect(modelMessages(events)[1].message.content).toEqual(ok.content);
    // The broken stream's retry is the transport's non-streaming fallback, sent at once (docs/loop.md §4.5).
    expect((api.requests[1] as { stream?: boolean }).stream).toBe(false);
    expect(clock.sleeps).toEqual([]);
  });
});
