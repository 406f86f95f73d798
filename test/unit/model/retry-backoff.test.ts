import { describe, expect, it } from 'vitest';
import { createAnthropicModelCaller } from '../../../src/model/anthropic-model-caller.ts';
import { backoffDelay } from '../../../src/model/retry-policy.ts';
import { callOptions, collect, eventTypes, fakeClock, loopEvents, modelMessages, modelRequest, runCall, TEST_RETRY, fakeApi } from './helpers.ts';

const serverError = { status: 500, error: { type: 'api_error', message: 'Internal server error' } } as const;

describe('retries with exponential backoff', () => {
  it('retries a 500 and serves the next answer, waiting baseDelayMs through the injected clock', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall({ model: [serverError, { content: [{ type: 'text', text: 'recovered' }] }] }, undefined, { clock });

    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].message.content).toEqual([{ type: 'text', text: 'recovered' }]);
    expect(api.requests).toHaveLength(2);
    expect(api.requests[1]).toEqual(api.requests[0]);
    expect(clock.sleeps).toEqual([100]);
  });

  it('doubles the delay per retry and caps it at maxDelayMs', async () => {
    const clock = fakeClock();
    const retry = { ...TEST_RETRY, maxRetries: 6, baseDelayMs: 100, maxDelayMs: 1_000 };
    await runCall({ model: [...Array.from({ length: 6 }, () => serverError), { content: [{ type: 'text', text: 'ok' }] }] }, undefined, {
      clock,
      retry,
    });
    expect(clock.sleeps).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect([0, 1, 2, 3, 4].map((n) => backoffDelay(retry, n))).toEqual([100, 200, 400, 800, 1_000]);
  });

  it('gives up after maxRetries with one API-error message carrying status and type (nothing thrown)', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall({ model: Array.from({ length: 10 }, () => serverError) }, undefined, { clock });
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    const [message] = modelMessages(events);
    expect(message.apiError).toMatchObject({ kind: 'other', status: 500, errorType: 'api_error' });
    expect(message.apiError?.text).toContain('Internal server error');
    expect(events[1]).toEqual({ type: 'model_done', stopReason: null });
    expect(api.requests).toHaveLength(TEST_RETRY.maxRetries + 1);
    expect(clock.sleeps).toHaveLength(TEST_RETRY.maxRetries);
  });

  it('retries an authentication error with the normal backoff, as the original; a persistent one ends as an API error', async () => {
    const auth = { status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } };
    const once = await runCall({ model: [auth, { content: [{ type: 'text', text: 'ok' }] }] }, undefined, { clock: fakeClock() });
    expect(once.api.requests).toHaveLength(2);
    expect(modelMessages(once.events)[0].apiError).toBeUndefined();
    const clock = fakeClock();
    const { api, events } = await runCall({ model: [{ ...auth, repeat: TEST_RETRY.maxRetries + 1 }] }, undefined, { clock });
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toMatchObject({ kind: 'other', status: 401, errorType: 'authentication_error' });
    expect(modelMessages(events)[0].apiError?.text).toContain('invalid x-api-key');
    expect(api.requests).toHaveLength(TEST_RETRY.maxRetries + 1);
    expect(clock.sleeps).toHaveLength(TEST_RETRY.maxRetries);
  });

  it('retries no 401 with maxAuthRetries: 0 (turnloop run)', async () => {
    const api = await fakeApi({ model: [{ status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } }] });
    const callModel = createAnthropicModelCaller({ apiKey: 'bad', baseURL: api.baseURL, maxAuthRetries: 0 });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions())));
    expect(modelMessages(events)[0].apiError).toMatchObject({ status: 401 });
    expect(api.requests).toHaveLength(1);
  });

  it('retries a connection failure (nothing listening)', async () => {
    const clock = fakeClock();
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: 'http://127.0.0.1:1' });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions({ clock, retry: { ...TEST_RETRY, maxRetries: 2 } }))));
    expect(events.map((e) => e.type)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toMatchObject({ kind: 'other' });
    expect(modelMessages(events)[0].apiError?.status).toBeUndefined();
    expect(clock.sleeps).toEqual([100, 200]);
  });
});
