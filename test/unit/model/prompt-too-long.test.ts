import { describe, expect, it } from 'vitest';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

describe('a request the API rejects as too long', () => {
  it('becomes a prompt_too_long API-error message with the raw API text, then model_done', async () => {
    const text = 'prompt is too long: 214518 tokens > 200000 maximum';
    const { api, events } = await runCall({ model: [{ status: 400, error: { type: 'invalid_request_error', message: text } }] });

    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    const [message] = modelMessages(events);
    expect(message.apiError).toEqual({ kind: 'prompt_too_long', text, status: 400, errorType: 'invalid_request_error' });
    expect(message.message.content).toEqual([{ type: 'text', text }]);
    expect(events[1]).toEqual({ type: 'model_done', stopReason: null });
    expect(api.requests).toHaveLength(1); // never retried
  });

  it('recognises a 413 whose text says the prompt is too long', async () => {
    const { events } = await runCall({
      model: [{ status: 413, error: { type: 'request_too_large', message: 'Prompt is too long for this model' } }],
    });
    expect(modelMessages(events)[0].apiError?.kind).toBe('prompt_too_long');
  });

  it('turns any other 400 into an invalid_request API-error message, not retried', async () => {
    const text = 'messages.1.content.0: unexpected tool_use_id found in tool_result blocks';
    const { api, events } = await runCall({ model: [{ status: 400, error: { type: 'invalid_request_error', message: text } }] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError).toEqual({ kind: 'invalid_request', text, status: 400, errorType: 'invalid_request_error' });
    expect(api.requests).toHaveLength(1);
  });
});
