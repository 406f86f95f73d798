/**
 * The transport's non-streaming fallback through the whole stack and the real `@anthropic-ai/sdk` (docs/loop.md
 * §4.5 "Streaming fallback"): a stream cut mid-reply, then one non-streaming answer from the loopback fake API.
 *
 * Original (Claude Code 2.1.88, `services/api/claude.ts`): the fallback request carries an explicit timeout
 * (807-811: 300 s) and `max_tokens` capped at 64,000 (857-872, 3354); the broken attempt's messages are tombstoned
 * (`query.ts:712-717`). Without the timeout the SDK itself refuses a non-streaming request at the default 32,000
 * output tokens, so the loop used to retry and end on an API error.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';

describe('non-streaming fallback end to end, real SDK (claude.ts:807-872)', () => {
  let api: FakeApi | undefined;
  afterEach(async () => api?.close());

  async function run(model: string, maxTokens?: number) {
    const models = maxTokens === undefined ? {} : { [model]: { contextWindow: 200_000, maxOutputTokens: maxTokens, maxOutputTokensUpperLimit: maxTokens } };
    const config = resolveConfig({ model, models });
    api = await startFakeAnthropicApi({
      model: [
        // message_start, block 0 start + delta + stop, block 1 start + delta: the socket dies mid-reply.
        { id: 'msg_broken', content: [{ type: 'text', text: 'Half of' }, { type: 'text', text: 'the answer' }], cut_after_events: 6 },
        { id: 'msg_whole', content: [{ type: 'text', text: 'The whole answer.' }] },
      ],
    }, { models: { models: config.models } });
    const result = await runLoopToEnd({
      prompt: 'go',
      config,
      deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }), clock: virtualClock(), newId: counterIds('sf') },
    });
    return { ...result, log: api.log, rejections: api.rejections() };
  }

  it('at the default max_tokens: one non-streaming request with a timeout, the partial message tombstoned', async () => {
    const { items, terminal, log, rejections } = await run('claude-sonnet-4-6');
    expect(terminal).toEqual({ reason: 'completed' });
    expect(rejections).toEqual([]);
    expect(log).toHaveLength(2);
    const [streamed, fallback] = log.map((r) => r.body as { stream: boolean; max_tokens: number; messages: unknown });
    expect(streamed.stream).toBe(true);
    expect(streamed.max_tokens).toBeGreaterThan(21_333); // above what the SDK allows without a timeout
    expect(fallback.stream).toBe(false);
    expect(fallback.max_tokens).toBe(streamed.max_tokens);
    expect(fallback.messages).toEqual(streamed.messages);
    // The SDK announces the request's timeout (seconds) in this header: the original's 300 s.
    expect(log[1].headers['x-stainless-timeout']).toBe('300');

    const assistants = items.filter((i) => i.type === 'assistant');
    const broken = assistants.find((m) => m.message.id === 'msg_broken');
    expect(broken).toBeDefined();
    const tombstones = items.filter((i) => i.type === 'tombstone');
    expect(tombstones.map((t) => t.targetUuid)).toEqual([broken!.uuid]);
    const last = assistants.at(-1)!;
    expect(last.message.id).toBe('msg_whole');
    expect(last.message.content).toEqual([{ type: 'text', text: 'The whole answer.' }]);
    expect(assistants.some((m) => m.apiError)).toBe(false);
  });

  it('caps the fallback at 64,000 output tokens where the streamed request asks for more (claude.ts:3354)', async () => {
    const { terminal, log, rejections } = await run('claude-big-output', 128_000);
    expect(terminal).toEqual({ reason: 'completed' });
    expect(rejections).toEqual([]);
    const bodies = log.map((r) => r.body as { stream: boolean; max_tokens: number });
    expect(bodies.map((b) => [b.stream, b.max_tokens])).toEqual([
      [true, 128_000],
      [false, 64_000],
    ]);
  });
});
