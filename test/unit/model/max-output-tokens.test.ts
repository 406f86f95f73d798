import { describe, expect, it } from 'vitest';
import { eventTypes, modelMessages, modelRequest, runCall } from './helpers.ts';

describe('a reply that hits the output limit', () => {
  it('never turns a tool_use cut by max_tokens into a message, and adds a max_output_tokens API-error message', async () => {
    const { events } = await runCall(
      {
        model: [
          {
            content: [
              { type: 'text', text: 'Writing the file now.' },
              { type: 'tool_use', id: 'toolu_cut', name: 'Write', input: { path: 'big.txt', content: 'y'.repeat(200) } },
            ],
            truncate_last_block: true,
          },
        ],
      },
      modelRequest({ max_tokens: 512 }),
    );

    expect(eventTypes(events)).toEqual(['model_message', 'model_message', 'model_done']);
    const [text, error] = modelMessages(events);
    expect(text.message.content).toEqual([{ type: 'text', text: 'Writing the file now.' }]);
    expect(text.message.stop_reason).toBeNull(); // released when the cut block started
    expect(events.flatMap((e) => (e.type === 'model_message' ? e.message.message.content : [])).some((b) => b.type === 'tool_use')).toBe(false);
    expect(error.apiError?.kind).toBe('max_output_tokens');
    expect(error.apiError?.text).toContain('512');
    expect(events[2]).toMatchObject({ type: 'model_done', stopReason: 'max_tokens' });
  });

  it('treats model_context_window_exceeded like max_tokens', async () => {
    const { events } = await runCall({
      model: [{ content: [{ type: 'text', text: 'partial' }], stop_reason: 'model_context_window_exceeded' }],
    });
    expect(eventTypes(events)).toEqual(['model_message', 'model_message', 'model_done']);
    expect(modelMessages(events)[1].apiError?.kind).toBe('max_output_tokens');
  });

  it('drops a tool_use whose block stopped but whose input JSON is incomplete', async () => {
    const sse = [
      ['message_start', { type: 'message_start', message: { id: 'msg_x', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_x', name: 'Write', input: {} } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path": "a' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'max_tokens', stop_sequence: null }, usage: { output_tokens: 7 } }],
      ['message_stop', { type: 'message_stop' }],
    ]
      .map(([event, data]) => `event: ${String(event)}\ndata: ${JSON.stringify(data)}\n\n`)
      .join('');
    const { events } = await runCall({ model: [{ sse }] });
    expect(eventTypes(events)).toEqual(['model_message', 'model_done']);
    expect(modelMessages(events)[0].apiError?.kind).toBe('max_output_tokens');
  });
});
