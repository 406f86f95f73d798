/**
 * What the original keeps to itself (Claude Code 2.1.88 `query.ts`), through the real SDK and the fake API:
 * - stop reason `model_context_window_exceeded` becomes a `max_output_tokens` API error (`services/api/claude.ts:2279-2291`)
 *   and takes the max-output-tokens recovery path (`query.ts:175-179`, `:1188-1252`);
 * - the withheld error is never yielded (`query.ts:820-825`) and neither is the recovery prompt, a meta message
 *   added to the next request only (`query.ts:1223-1250`); likewise the token-budget nudge (`query.ts:1308-1330`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';

type Body = { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> };

describe('quiet engine messages, real SDK (query.ts:820-825, 1223-1250, 1308-1330)', () => {
  let api: FakeApi | undefined;
  afterEach(async () => api?.close());

  it('model_context_window_exceeded: recovered, the API error and the recovery prompt never yielded', async () => {
    api = await startFakeAnthropicApi({
      model: [
        { id: 'msg_cut', content: [{ type: 'text', text: 'The first half' }], stop_reason: 'model_context_window_exceeded' },
        { id: 'msg_rest', content: [{ type: 'text', text: 'and the second half.' }] },
      ],
    });
    const { items, terminal } = await runLoopToEnd({
      prompt: 'go',
      config: resolveConfig({}),
      deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }), clock: virtualClock(), newId: counterIds('q') },
    });
    expect(terminal).toEqual({ reason: 'completed' });
    expect(api.log).toHaveLength(2);
    const second = api.log[1].body as Body;
    const last = second.messages.at(-1)!;
    // The recovery prompt went to the model, after the cut output...
    expect(second.messages.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'The first half' }] });
    expect(last.role).toBe('user');
    const recoveryText = last.content.map((b) => b.text ?? '').join('');
    expect(recoveryText.length).toBeGreaterThan(0);
    // ...but neither it nor the withheld error reached the caller.
    const yielded = JSON.stringify(items);
    expect(yielded).not.toContain(JSON.stringify(recoveryText).slice(1, -1));
    expect(items.some((i) => i.type === 'assistant' && i.apiError)).toBe(false);
    expect(items.filter((i) => i.type === 'assistant').map((i) => i.message.id)).toEqual(['msg_cut', 'msg_rest']);
  });

  it('the token-budget nudge goes to the model but is never yielded', async () => {
    api = await startFakeAnthropicApi({
      model: [
        { id: 'msg_1', content: [{ type: 'text', text: 'Some work.' }], usage: { input_tokens: 10, output_tokens: 100 } },
        { id: 'msg_2', content: [{ type: 'text', text: 'More work.' }], usage: { input_tokens: 10, output_tokens: 5_000 } },
      ],
    });
    const { items, terminal } = await runLoopToEnd({
      prompt: 'go',
      tokenBudget: 1_000,
      config: resolveConfig({}),
      deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }), clock: virtualClock(), newId: counterIds('b') },
    });
    expect(terminal.reason).toBe('completed');
    expect(api.log).toHaveLength(2);
    const nudge = (api.log[1].body as Body).messages.at(-1)!;
    expect(nudge.role).toBe('user');
    const nudgeText = nudge.content.map((b) => b.text ?? '').join('');
    expect(nudgeText).toMatch(/10%/);
    expect(JSON.stringify(items)).not.toContain(JSON.stringify(nudgeText).slice(1, -1));
    expect(items.filter((i) => i.type === 'user')).toEqual([]);
  });
});
