/**
 * Model fallback through the whole stack (docs/loop.md §4.5): the model is overloaded twice, then streams a tool_use and is
 * overloaded mid-stream a third time; with `fallbackModel` set the loop answers the orphaned tool_use, warns, and sends the same
 * request to the fallback model, with a history in which every tool_use is paired.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveConfig } from '../../../src/config/config.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { defineTool } from '../../../src/tools/index.ts';
import { encodeSseEvent, replyToSseEvents, startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';

const overloadedEvent = encodeSseEvent({
  event: 'error',
  data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
});

/** A stream that finishes one tool_use block, then fails with an overloaded error. */
function toolUseThenOverloaded(): string {
  const events = replyToSseEvents(
    { content: [{ type: 'tool_use', id: 'toolu_lost', name: 'echo', input: { text: 'a' } }] },
    { requestBody: {}, messageId: 'msg_lost', model: 'claude-sonnet-4-6' },
  );
  const blockStop = events.findIndex((e) => e.event === 'content_block_stop');
  return events.slice(0, blockStop + 1).map(encodeSseEvent).join('') + overloadedEvent;
}

describe('model fallback end to end', () => {
  let api: FakeApi | undefined;
  afterEach(async () => api?.close());

  it('answers the orphaned tool_use, warns naming both models, and retries on the fallback model', async () => {
    const overloaded = { status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } };
    api = await startFakeAnthropicApi({
      model: [overloaded, overloaded, { sse: toolUseThenOverloaded() }, { content: [{ type: 'text', text: 'Done on the fallback.' }] }],
    });
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      inputSchema: z.object({ text: z.string() }),
      call: async ({ text }) => ({ content: text }),
    });
    const { items, terminal } = await runLoopToEnd({
      prompt: 'go',
      tools: [echo],
      fallbackModel: 'claude-haiku-4-5',
      config: resolveConfig({ model: 'claude-sonnet-4-6' }),
      deps: {
        callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }),
        clock: virtualClock(),
        newId: counterIds('fb'),
      },
    });
    expect(terminal).toEqual({ reason: 'completed' });
    const bodies = api.log.map((r) => r.body as { model: string; messages: Array<{ role: string; content: unknown }> });
    expect(bodies.map((b) => b.model)).toEqual(['claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6', 'claude-haiku-4-5']);
    expect(api.rejections()).toEqual([]);
    // The retried request is the same request: the lost attempt's tool_use is not in it.
    expect(bodies[3].messages).toEqual(bodies[0].messages);
    const orphanAnswer = items.find((i) => i.type === 'user' && JSON.stringify(i.message.content).includes('toolu_lost'));
    expect(JSON.stringify(orphanAnswer)).toContain('"is_error":true');
    const warning = items.find((i) => i.type === 'system' && i.subtype === 'warning');
    expect(warning && 'content' in warning ? warning.content : '').toMatch(/claude-sonnet-4-6.*claude-haiku-4-5/);
  });
});
