/**
 * A `refusal` stop reason is an API-error message (docs/loop.md §4.5): the model's text so far stays a message of its own,
 * and one API-error message follows it, so the exit ladder ends the turn without stop hooks (docs/loop.md §9.4).
 */
import { describe, expect, it } from 'vitest';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

describe('stop_reason refusal', () => {
  it('releases the text that arrived, then one API-error message tagged refusal, then model_done', async () => {
    const { events } = await runCall({ model: [{ content: [{ type: 'text', text: 'I can help with part of' }], stop_reason: 'refusal' }] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_message', 'model_done']);
    const [text, refusal] = modelMessages(events);
    expect(text.apiError).toBeUndefined();
    expect(text.message.content).toEqual([{ type: 'text', text: 'I can help with part of' }]);
    expect(refusal.apiError).toMatchObject({ kind: 'other', errorType: 'refusal' });
    expect(events[2]).toMatchObject({ type: 'model_done', stopReason: 'refusal' });
  });
});
