import { describe, expect, it } from 'vitest';
import { toApiMessages } from '../../../src/model/to-api-messages.ts';
import type { AssistantMessage, Message, UserMessage } from '../../../src/messages/types.ts';

const user = (uuid: string, content: UserMessage['message']['content'], extra: Partial<UserMessage> = {}): UserMessage => ({
  type: 'user',
  uuid,
  message: { role: 'user', content },
  ...extra,
});

const assistant = (uuid: string, id: string, content: AssistantMessage['message']['content']): AssistantMessage => ({
  type: 'assistant',
  uuid,
  message: { id, role: 'assistant', model: 'm', content, stop_reason: null },
});

const toolResult = (toolUseId: string, content = 'ok'): UserMessage =>
  user(`r-${toolUseId}`, [{ type: 'tool_result', tool_use_id: toolUseId, content }], { sourceToolUseId: toolUseId });

describe('toApiMessages', () => {
  it('drops an assistant turn of thinking alone (max_tokens inside a tool_use) and merges the user turns around it', () => {
    const history: Message[] = [
      user('u1', 'Write a very long file.'),
      assistant('a1', 'msg_1', [{ type: 'thinking', thinking: 'plan', signature: 's' }]),
      user('u2', 'Your reply was cut off; go on.', { isMeta: true }),
    ];
    expect(toApiMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Write a very long file.' }, { type: 'text', text: 'Your reply was cut off; go on.' }] },
    ]);
    // A thinking block beside anything else stays.
    const kept = toApiMessages([...history.slice(0, 2), assistant('a2', 'msg_1', [{ type: 'text', text: 'Done.' }]), history[2]]);
    expect(kept.map((turn) => [turn.role, turn.content.map((b) => b.type)])).toEqual([
      ['user', ['text']],
      ['assistant', ['thinking', 'text']],
      ['user', ['text']],
    ]);
  });

  it('merges the per-block assistant messages of one reply into one assistant turn, blocks in order', () => {
    const history: Message[] = [
      user('u1', 'Read two files'),
      assistant('a1', 'msg_1', [{ type: 'thinking', thinking: 'plan', signature: 's' }]),
      assistant('a2', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } }]),
      assistant('a3', 'msg_1', [{ type: 'tool_use', id: 't2', name: 'Read', input: { path: 'b' } }]),
      toolResult('t1'),
      toolResult('t2'),
    ];
    expect(toApiMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Read two files' }] },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'plan', signature: 's' },
          { type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { path: 'b' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'ok' },
          { type: 'tool_result', tool_use_id: 't2', content: 'ok' },
        ],
      },
    ]);
  });

  it('merges consecutive user-side messages into one turn with the tool results first (pairing preserved)', () => {
    const history: Message[] = [
      user('u1', 'go'),
      assistant('a1', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }]),
      { type: 'attachment', uuid: 'att', attachment: { type: 'queued_command', prompt: 'also check the tests' } },
      toolResult('t1', 'done'),
      user('meta', 'Keep going.', { isMeta: true }),
    ];
    const turns = toApiMessages(history);
    expect(turns).toHaveLength(3);
    expect(turns[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'done' },
        { type: 'text', text: 'also check the tests' },
        { type: 'text', text: 'Keep going.' },
      ],
    });
  });

  it('drops assistant API-error messages, tombstones, tool-use summaries and plain system messages', () => {
    const history: Message[] = [
      user('u1', 'hi'),
      { ...assistant('e1', 'e1', [{ type: 'text', text: 'prompt is too long' }]), apiError: { kind: 'prompt_too_long', text: 'prompt is too long' } },
      { type: 'tombstone', uuid: 'ts', targetUuid: 'x' },
      { type: 'tool_use_summary', uuid: 's', summary: 'ran tools', precedingToolUseIds: [] },
      { type: 'system', uuid: 'w', subtype: 'warning', content: 'switched model' },
      user('u2', 'again'),
    ];
    expect(toApiMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'text', text: 'again' }] },
    ]);
  });

  it('sends a compact boundary only through its data.summary, as user text', () => {
    const history: Message[] = [
      { type: 'system', uuid: 'b1', subtype: 'compact_boundary', content: 'Conversation compacted', data: { summary: 'We fixed the parser.' } },
      { type: 'system', uuid: 'b2', subtype: 'compact_boundary', content: 'Conversation compacted' },
      user('u1', 'continue'),
    ];
    expect(toApiMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'We fixed the parser.' }, { type: 'text', text: 'continue' }] },
    ]);
  });

  it('turns attachments into user text and leaves UI-only ones out', () => {
    const history: Message[] = [
      { type: 'attachment', uuid: 'a', attachment: { type: 'context', name: 'memory', content: 'Use tabs.' } },
      { type: 'attachment', uuid: 'b', attachment: { type: 'max_turns_reached', maxTurns: 1, turnCount: 2 } },
    ];
    expect(toApiMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: '<context name="memory">\nUse tabs.\n</context>' }] },
    ]);
  });

  it('drops empty text blocks and turns left empty, and never mutates its input', () => {
    const history: Message[] = [user('u1', 'q'), assistant('a1', 'm', [{ type: 'text', text: '' }]), user('u2', '')];
    const snapshot = JSON.stringify(history);
    expect(toApiMessages(history)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
    expect(JSON.stringify(history)).toBe(snapshot);
  });
});
