import { describe, expect, it } from 'vitest';
import { createAnthropicModelCaller } from '../../../src/effects/model/anthropic-model-caller.ts';
import { backoffDelay } from '../../../src/effects/model/retry-policy.ts';
import { callOptions, collect, eventTypes, fakeClock, loopEvents, modelMessages, modelRequest, runCall, TEST_RETRY } from './helpers.ts';

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

  it('gives up with model_error after maxRetries, carrying status and type', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall({ model: Array.from({ length: 10 }, () => serverError) }, undefined, { clock });
    expect(events).toEqual([{ type: 'model_error', error: { kind: 'other', message: 'Internal server error', status: 500, type: 'api_error' } }]);
    expect(api.requests).toHaveLength(TEST_RETRY.maxRetries + 1);
    expect(clock.sleeps).toHaveLength(TEST_RETRY.maxRetries);
  });

  it('does not retry an authentication error', async () => {
    const { api, events } = await runCall({
      model: [{ status: 401, error: { type: 'authentication_error', message: 'invalid x-api-key' } }],
    });
    expect(events).toEqual([
      { type: 'model_error', error: { kind: 'other', message: 'invalid x-api-key', status: 401, type: 'authentication_error' } },
    ]);
    expect(api.requests).toHaveLength(1);
  });

  it('retries a connection failure (nothing listening)', async () => {
    const clock = fakeClock();
    const callModel = createAnthropicModelCaller({ apiKey: 'k', baseURL: 'http://127.0.0.1:1' });
    const events = loopEvents(await collect(callModel(modelRequest(), callOptions({ clock, retry: { ...TEST_RETRY, maxRetries: 2 } }))));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'model_error', error: { kind: 'other' } });
    expect(clock.sleeps).toEqual([100, 200]);
  });
});
