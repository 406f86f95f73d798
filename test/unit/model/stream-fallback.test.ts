import { describe, expect, it } from 'vitest';
import { eventTypes, fakeClock, modelMessages, runCall } from './helpers.ts';

describe('a stream that breaks', () => {
  it('mid-block: yields model_stream_fallback, then the retried reply', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall(
      {
        model: [
          // message_start, block 0 (start, 1 delta, stop), block 1 start + 1 delta, then the socket dies.
          {
            content: [
              { type: 'text', text: 'First part.' },
              { type: 'tool_use', id: 'toolu_lost', name: 'Bash', input: { command: 'echo lost' } },
            ],
            cut_after_events: 6,
          },
          { id: 'msg_retry', content: [{ type: 'text', text: 'Second try.' }] },
        ],
      },
      undefined,
      { clock },
    );

    expect(eventTypes(events)).toEqual(['model_message', 'model_stream_fallback', 'model_message', 'model_done']);
    const [broken, retried] = modelMessages(events);
    expect(broken.message.content).toEqual([{ type: 'text', text: 'First part.' }]);
    expect(retried.message.id).toBe('msg_retry');
    expect(retried.message.content).toEqual([{ type: 'text', text: 'Second try.' }]);
    // The cut tool_use never became a message.
    expect(modelMessages(events).some((m) => m.message.content.some((b) => b.type === 'tool_use'))).toBe(false);
    expect(api.requests).toHaveLength(2);
    // As the original transport: the retry is the same request without streaming, sent at once.
    expect((api.requests[0] as { stream?: boolean }).stream).toBe(true);
    expect((api.requests[1] as { stream?: boolean }).stream).toBe(false);
    expect({ ...(api.requests[1] as object), stream: true }).toEqual(api.requests[0]);
    expect(clock.sleeps).toEqual([]);
  });

  it('a non-streaming retry that fails too is retried without streaming, with backoff', async () => {
    const clock = fakeClock();
    const { api, events } = await runCall(
      {
        model: [
          { content: [{ type: 'text', text: 'First part.' }, { type: 'text', text: 'lost' }], cut_after_events: 5 },
          { status: 500, error: { type: 'api_error', message: 'boom' } },
          { content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }] },
        ],
      },
      undefined,
      { clock },
    );
    expect(eventTypes(events)).toEqual(['model_message', 'model_stream_fallback', 'model_message', 'model_done']);
    expect(api.requests.map((r) => (r as { stream?: boolean }).stream)).toEqual([true, false, false]);
    expect(modelMessages(events)[1].message.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }]);
    expect(clock.sleeps).toEqual([100]);
  });

  it('before any event: retried plainly, without a streaming fallback', async () => {
    const { events } = await runCall({
      model: [{ content: [{ type: 'text', text: 'lost' }], cut_after_events: 0 }, { content: [{ type: 'text', text: 'served' }] }],
    });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].message.content).toEqual([{ type: 'text', text: 'served' }]);
  });

  it('that ends cleanly without message_stop counts as broken', async () => {
    const sse = 'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n';
    const { events } = await runCall({ model: [{ sse }, { content: [{ type: 'text', text: 'complete' }] }] });
    expect(eventTypes(events)).toEqual(['model_stream_fallback', 'model_message', 'model_done']);
  });
});
