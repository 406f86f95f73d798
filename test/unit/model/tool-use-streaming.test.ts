import { describe, expect, it } from 'vitest';
import { eventTypes, modelMessages, runCall } from './helpers.ts';

describe('a tool_use reply', () => {
  it('assembles the tool input from several input_json_delta pieces into one tool_use message', async () => {
    const input = { command: 'ls -la /tmp', description: 'List the temporary directory', timeout: 30_000 };
    const { items, events } = await runCall({
      model: [{ id: 'msg_tool', content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input }] }],
    });

    const jsonPieces = items.filter(
      (item) => item.kind === 'stream_event' && (item.event as { delta?: { type?: string } }).delta?.type === 'input_json_delta',
    );
    expect(jsonPieces.length).toBeGreaterThanOrEqual(3);

    expect(eventTypes(events)).toEqual(['model_message', 'model_message', 'model_done']);
    const [text, toolUse] = modelMessages(events);
    expect(text.message.content).toEqual([{ type: 'text', text: 'Let me look.' }]);
    expect(toolUse.message.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input }]);
    expect(toolUse.message.id).toBe('msg_tool');
    expect(toolUse.message.stop_reason).toBe('tool_use');
    expect(events.at(-1)).toMatchObject({ type: 'model_done', stopReason: 'tool_use' });
  });

  it('yields each tool_use as soon as the next event arrives, before the reply ends', async () => {
    const { items } = await runCall({
      model: [
        {
          content: [
            { type: 'tool_use', id: 'toolu_a', name: 'Read', input: { path: 'a.ts' } },
            { type: 'tool_use', id: 'toolu_b', name: 'Read', input: { path: 'b.ts' } },
          ],
        },
      ],
    });
    const order = items.map((item) =>
      item.kind === 'stream_event' ? (item.event as { type: string }).type : `${item.event.type}`,
    );
    const firstMessage = order.indexOf('model_message');
    expect(firstMessage).toBeGreaterThan(-1);
    expect(firstMessage).toBeLessThan(order.indexOf('message_delta'));
  });

  it('keeps an empty tool input as an empty object', async () => {
    const { events } = await runCall({ model: [{ content: [{ type: 'tool_use', id: 'toolu_e', name: 'Glob', input: {} }] }] });
    expect(modelMessages(events)[0].message.content).toEqual([{ type: 'tool_use', id: 'toolu_e', name: 'Glob', input: {} }]);
  });
});
