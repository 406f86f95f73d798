/** The text streamed before an interrupt, kept as claude keeps it (Extension `sdkPartialReplyOnInterrupt`). */
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { PartialReply } from '../../../src/agent-sdk/partial-reply.ts';
import { runHeadless, SDK_ARGS, tempProject, userLine, initialize, type Line } from './headless-harness.ts';

describe('partial reply on interrupt', () => {
  it('an interrupt mid-text writes the streamed text as an aborted assistant message and sends it in the next request', async () => {
    // The first reply streams slowly (a second between events): the interrupt lands after its first text delta.
    const api = await startFakeAnthropicApi({
      model: [{ content: [{ type: 'text', text: 'A long answer that is cut short.' }], eventDelayMs: 1_000 }, { content: [{ type: 'text', text: 'Second answer.' }] }],
    });
    try {
      let interrupted = false;
      const run = await runHeadless([...SDK_ARGS, '--include-partial-messages'], {
        cwd: tempProject(),
        env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: api.baseURL },
        opening: [initialize(), userLine('First question.')],
        results: 2,
        onLine: (line, send) => {
          if (process.env.DEBUG_PARTIAL) console.log(JSON.stringify(line).slice(0, 300));
          if (!interrupted && line.type === 'stream_event' && line.event.type === 'content_block_delta') {
            interrupted = true;
            send({ type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } });
          }
          if (line.type === 'result' && line.terminal_reason === 'aborted_streaming') send(userLine('Second question.'));
        },
      });
      const streamed = run.lines.find((l) => l.type === 'stream_event' && l.event.type === 'content_block_delta')!.event.delta.text as string;
      const shown = run.lines.filter((l) => l.type === 'assistant' || l.type === 'user').map((l: Line) => ({ type: l.type, aborted: l.aborted, content: l.message.content }));
      expect(shown.slice(0, 2)).toEqual([
        { type: 'assistant', aborted: true, content: [{ type: 'text', text: streamed }] },
        { type: 'user', aborted: undefined, content: [{ type: 'text', text: '[Request interrupted by user]' }] },
      ]);
      const second = api.requests.at(-1) as { messages: Array<{ role: string; content: unknown }> };
      expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(second.messages[1].content)).toContain(streamed);
      expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Second answer.' });
    } finally {
      await api.close();
    }
  });

  it('keeps text blocks only: a partial tool_use is dropped, and nothing is kept when no text streamed', () => {
    const reply = new PartialReply();
    reply.add({ type: 'message_start', message: { id: 'msg_1', model: 'm', usage: { input_tokens: 3, output_tokens: 1 } } });
    expect(reply.message('u')).toBeUndefined();
    reply.add({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    reply.add({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } });
    reply.add({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'look.' } });
    reply.add({ type: 'content_block_stop', index: 0 });
    reply.add({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't', name: 'Read', input: {} } });
    reply.add({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"file' } });
    expect(reply.message('u')).toEqual({
      type: 'assistant',
      uuid: 'u',
      message: { id: 'msg_1', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Let me look.' }], stop_reason: null, usage: { input_tokens: 3, output_tokens: 1 } },
    });
    reply.reset();
    expect(reply.message('u')).toBeUndefined();
  });
});
