/**
 * The production model caller without credentials fails at once (no request, no retry, no 160 s of backoff), and
 * tells its `onRetry` hook about every retry: what failed, which retry of how many, and the wait.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicModelCaller, MISSING_CREDENTIALS_MESSAGE, type ModelRetryNotice } from '../../../src/model/anthropic-model-caller.ts';
import { callOptions, collect, fakeApi, fakeClock, loopEvents, modelRequest, TEST_RETRY } from './helpers.ts';

const serverError = { status: 500, error: { type: 'api_error', message: 'Internal server error' } } as const;

describe('credentials', () => {
  const saved = { key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN };
  beforeEach(() => {
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
  });
  afterEach(() => {
    if (saved.key !== undefined) process.env.ANTHROPIC_API_KEY = saved.key;
    if (saved.token !== undefined) process.env.ANTHROPIC_AUTH_TOKEN = saved.token;
  });

  it('with no key anywhere, ends the call on an API-error message naming ANTHROPIC_API_KEY, sending nothing', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'never served' }] }] });
    const clock = fakeClock();
    const events = loopEvents(await collect(createAnthropicModelCaller({ baseURL: api.baseURL })(modelRequest(), callOptions({ clock }))));
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    const message = events[0].type === 'model_message' ? events[0].message : undefined;
    expect(message?.apiError).toEqual({ kind: 'other', text: `API error: ${MISSING_CREDENTIALS_MESSAGE}` });
    expect(MISSING_CREDENTIALS_MESSAGE).toContain('ANTHROPIC_API_KEY');
    expect(api.requests).toHaveLength(0);
    expect(clock.sleeps).toEqual([]);
  });

  it('takes the key from ANTHROPIC_API_KEY when none is passed', async () => {
    process.env.ANTHROPIC_API_KEY = 'env-key';
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'hi' }] }] });
    const events = loopEvents(await collect(createAnthropicModelCaller({ baseURL: api.baseURL })(modelRequest(), callOptions())));
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    expect(api.requests).toHaveLength(1);
  });
});

describe('onRetry', () => {
  it('is told about each retry before its wait, with the failure, k of n and the delay', async () => {
    const api = await fakeApi({ model: [serverError, serverError, { content: [{ type: 'text', text: 'ok' }] }] });
    const notices: ModelRetryNotice[] = [];
    const clock = fakeClock();
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL, onRetry: (notice) => notices.push(notice) });
    await collect(callModel(modelRequest(), callOptions({ clock })));
    const url = `${api.baseURL.replace(/\/$/, '')}/v1/messages`;
    expect(notices).toEqual([
      { attempt: 1, maxRetries: TEST_RETRY.maxRetries, delayMs: clock.sleeps[0], error: { message: 'Internal server error', status: 500, url } },
      { attempt: 2, maxRetries: TEST_RETRY.maxRetries, delayMs: clock.sleeps[1], error: { message: 'Internal server error', status: 500, url } },
    ]);
  });

  it('is not called for an answer that retrying cannot fix (403)', async () => {
    const api = await fakeApi({ model: [{ status: 403, error: { type: 'permission_error', message: 'not allowed' } }] });
    const notices: ModelRetryNotice[] = [];
    const callModel = createAnthropicModelCaller({ apiKey: 'bad', baseURL: api.baseURL, onRetry: (notice) => notices.push(notice) });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions())));
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    expect(notices).toEqual([]);
    expect(api.requests).toHaveLength(1);
  });
});
