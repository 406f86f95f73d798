/** The reduction the side-by-side compare relies on (harness/message-shape.ts), on hand-made SDK messages. */
import type { SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { expect, it } from 'vitest';
import { messageShapes } from './harness/message-shape.ts';

const assistant = (id: string, content: unknown[], parent: string | null = null) =>
  ({ type: 'assistant', message: { id, content }, parent_tool_use_id: parent }) as unknown as SDKMessage;
const user = (content: unknown[], parent: string | null = null) => ({ type: 'user', message: { content }, parent_tool_use_id: parent }) as unknown as SDKMessage;
const stream = { type: 'stream_event', event: { type: 'content_block_delta' }, parent_tool_use_id: null } as unknown as SDKMessage;

it('merges the per-block assistant messages of one API message, even with other messages between them', () => {
  const shapes = messageShapes([
    assistant('msg_1', [{ type: 'thinking' }]),
    { type: 'system', subtype: 'thinking_tokens' } as unknown as SDKMessage,
    assistant('msg_1', [{ type: 'tool_use', id: 'toolu_a', name: 'Read' }]),
    user([{ type: 'tool_result', tool_use_id: 'toolu_a' }]),
    assistant('msg_2', [{ type: 'text' }]),
  ]);
  expect(shapes).toEqual(['assistant [thinking, tool_use Read#0]', 'system thinking_tokens', 'user [tool_result#0]', 'assistant [text]']);
});

it('names tool_uses by position, marks error results, and a parent by its Task call', () => {
  const shapes = messageShapes([
    assistant('m1', [{ type: 'tool_use', id: 'x9', name: 'Task' }, { type: 'tool_use', id: 'x3', name: 'Bash' }]),
    assistant('m2', [{ type: 'text' }], 'x9'),
    user([{ type: 'tool_result', tool_use_id: 'x3', is_error: true }, { type: 'tool_result', tool_use_id: 'x9' }, { type: 'tool_result', tool_use_id: 'nope' }]),
  ]);
  expect(shapes).toEqual(['assistant [tool_use Task#0, tool_use Bash#1]', 'assistant (in #0) [text]', 'user [tool_result#1 error, tool_result#0, tool_result?]']);
});

it('collapses a run of stream events into one line and reduces a result to what is compared', () => {
  const result = {
    type: 'result',
    subtype: 'error_max_turns',
    is_error: true,
    terminal_reason: 'max_turns',
    num_turns: 2,
    errors: ['Reached maximum number of turns (1)'],
    permission_denials: [{ tool_name: 'Bash', tool_use_id: 't', tool_input: {} }],
    total_cost_usd: 0.5,
  } as unknown as SDKMessage;
  expect(messageShapes([stream, stream, assistant('m', [{ type: 'text' }]), stream, result])).toEqual([
    'stream_event',
    'assistant [text]',
    'stream_event',
    'result error_max_turns is_error=true terminal_reason=max_turns num_turns=2 errors=1 denials=[Bash]',
  ]);
});
