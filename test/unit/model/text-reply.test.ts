import { describe, expect, it } from 'vitest';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

describe('a text reply', () => {
  it('becomes one assistant message carrying the API message id, then model_done with usage and stop reason', async () => {
    const { items, events } = await runCall({
      model: [{ id: 'msg_abc', content: [{ type: 'text', text: 'Hello! How can I help you today?' }], usage: { input_tokens: 42, output_tokens: 9 } }],
    });

    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    const [message] = modelMessages(events);
    expect(message).toEqual({
      type: 'assistant',
      uuid: 'id-1',
      message: {
        id: 'msg_abc',
        role: 'assistant',
        model: 'claude-test',
        content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 42, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    });
    expect(events[1]).toEqual({
      type: 'model_done',
      stopReason: 'end_turn',
      usage: { input_tokens: 42, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(message.apiError).toBeUndefined();
    // Every raw SSE event is passed through, before the message it completes.
    const raw = items.filter((item) => item.kind === 'stream_event').map((item) => (item.event as { type: string }).type);
    expect(raw[0]).toBe('message_start');
    expect(raw.at(-1)).toBe('message_stop');
    expect(raw.filter((type) => type === 'content_block_delta').length).toBeGreaterThan(1);
  });

  it('yields one message per finished block, all sharing the API message id; only the last carries the final stop reason', async () => {
    const { events } = await runCall({
      model: [
        {
          id: 'msg_multi',
          content: [
            { type: 'thinking', thinking: 'Let me think about this for a moment.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Answer.' },
          ],
        },
      ],
    });

    const messages = modelMessages(events);
    expect(messages.map((m) => m.message.content[0])).toEqual([
      { type: 'thinking', thinking: 'Let me think about this for a moment.', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'Answer.' },
    ]);
    expect(new Set(messages.map((m) => m.message.id))).toEqual(new Set(['msg_multi']));
    expect(new Set(messages.map((m) => m.uuid)).size).toBe(3);
    expect(messages.map((m) => m.message.stop_reason)).toEqual([null, null, 'end_turn']);
  });

  it('reports usage computed by the fake API from the request when none is scripted', async () => {
    const { events } = await runCall({ model: [{ content: [{ type: 'text', text: 'x'.repeat(40) }] }] });
    const done = events.at(-1);
    expect(done?.type).toBe('model_done');
    if (done?.type !== 'model_done') return;
    expect(done.usage?.output_tokens).toBe(10);
    expect(done.usage?.input_tokens).toBeGreaterThan(0);
  });
});
