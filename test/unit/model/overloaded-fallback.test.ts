import { describe, expect, it } from 'vitest';
import { eventTypes, fakeClock, modelMessages, runCall, TEST_RETRY } from './helpers.ts';

const overloaded = { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } } as const;

describe('overloaded answers (529)', () => {
  it('end in model_overloaded after maxOverloadedRetries in a row when a fallback model is set', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall({ model: [overloaded, overloaded, overloaded, { content: [{ type: 'text', text: 'never served' }] }] }, undefined, {
      fallbackModel: 'claude-fallback',
      clock,
    });

    expect(events).toEqual([{ type: 'model_overloaded', message: 'Overloaded' }]);
    expect(api.requests).toHaveLength(3);
    expect(api.remaining()).toBe(1);
    // It waited between the attempts, not after the last one.
    expect(clock.sleeps).toEqual([100, 200]);
  });

  it('are retried under the general policy without a fallback model', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall(
      { model: [overloaded, overloaded, overloaded, overloaded, { content: [{ type: 'text', text: 'finally' }] }] },
      undefined,
      { clock },
    );

    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].message.content).toEqual([{ type: 'text', text: 'finally' }]);
    expect(api.requests).toHaveLength(5);
    expect(clock.sleeps).toEqual([100, 200, 400, 800]);
  });

  it('become one API-error message once the general retries are used up without a fallback model', async () => {
    const { events } = await runCall({ model: Array.from({ length: TEST_RETRY.maxRetries + 1 }, () => overloaded) });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toMatchObject({ kind: 'other', status: 529, errorType: 'overloaded_error' });
    expect(modelMessages(events)[0].apiError?.text).toContain('Overloaded');
  });

  it('count only in a row: another failure in between resets the run', async () => {
    const serverError = { status: 500, error: { type: 'api_error', message: 'boom' } } as const;
    const { api, events } = await runCall(
      { model: [overloaded, overloaded, serverError, overloaded, overloaded, { content: [{ type: 'text', text: 'ok' }] }] },
      undefined,
      { fallbackModel: 'claude-fallback', retry: { ...TEST_RETRY, maxRetries: 10 } },
    );
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(api.requests).toHaveLength(6);
  });

  it('also counts an overloaded_error that arrives as an SSE error event', async () => {
    const sse = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const { events } = await runCall({ model: [{ sse }, { sse }, { sse }] }, undefined, { fallbackModel: 'claude-fallback' });
    expect(events).toEqual([{ type: 'model_overloaded', message: 'Overloaded' }]);
  });
});
