/**
 * Requests a real user needs, through query() → the real adapter and SDK → the strict fake API:
 * - prompt caching: breakpoints as Claude Code places them (system prompt, last message), so the second request
 *   of a session reads the first one's prefix from the cache, and the loop's token count includes cache tokens;
 *   off and custom placements;
 * - extended thinking: the `thinking` param, thinking blocks round-tripping interleaved with tool use (signatures
 *   kept, each assistant turn opening with its thinking), refused by the fake when the loop would drop them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig, type ConfigOverrides } from '../../../src/config/config.ts';
import { buildApiRequest, createAnthropicModelCaller, INTERLEAVED_THINKING_BETA } from '../../../src/model/index.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { RunLoopOptions } from '../../../src/runtime/query-options.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { MIN_CACHEABLE_TOKENS, startFakeAnthropicApi, type FakeApi, type FakeScriptInput } from '../../../src/fake-api/index.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import { fakeReadTool } from '../../helpers/read-tool.ts';
import { modelRequest, userText } from './helpers.ts';

type Block = { type: string; cache_control?: unknown; [key: string]: unknown };
type Body = { system?: Block[]; messages: Array<{ role: string; content: Block[] }>; thinking?: unknown };

const SYSTEM = `You are a careful engineer. ${'Follow the house rules of this repository to the letter. '.repeat(120)}`;
const read = fakeReadTool((path) => `${path}: ${'line of code\n'.repeat(50)}`);

const apis: FakeApi[] = [];
afterEach(async () => {
  await Promise.all(apis.splice(0).map((api) => api.close()));
});

async function session(script: FakeScriptInput, options: Partial<RunLoopOptions> = {}, config: ConfigOverrides = {}) {
  const api = await startFakeAnthropicApi(script);
  apis.push(api);
  const result = await runLoopToEnd({
    prompt: 'Read the two files.',
    systemPrompt: [SYSTEM],
    tools: [read],
    config: resolveConfig({ sessionId: 'cache', ...config }),
    deps: { callModel: createAnthropicModelCaller({ apiKey: 'k', baseURL: api.baseURL }), clock: virtualClock(), newId: counterIds('c') },
    ...options,
  });
  return { api, ...result, bodies: api.requests as Body[] };
}

const twoReads: FakeScriptInput = {
  model: [
    { content: [{ type: 'tool_use', name: 'Read', input: { path: 'a.ts' } }] },
    { content: [{ type: 'tool_use', name: 'Read', input: { path: 'b.ts' } }] },
    { content: [{ type: 'text', text: 'Both read.' }] },
  ],
};

const marked = (blocks: Block[] | undefined) => (blocks ?? []).filter((block) => block.cache_control !== undefined);
const usages = (items: Array<{ type: string }>) =>
  (items.filter((item) => item.type === 'assistant') as AssistantMessage[]).filter((m) => m.message.stop_reason !== null).map((m) => m.message.usage!);

describe('prompt caching', () => {
  it('by default marks the system prompt and the last message, and each request reads the previous prefix', async () => {
    const { bodies, items, api } = await session(twoReads);
    expect(api.rejections()).toEqual([]);
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(marked(body.system)).toHaveLength(1);
      const last = body.messages[body.messages.length - 1];
      expect(marked(last.content)).toEqual([last.content[last.content.length - 1]]);
      expect(body.messages.slice(0, -1).flatMap((m) => marked(m.content))).toEqual([]);
    }
    const [first, second, third] = usages(items);
    expect(first.cache_read_input_tokens ?? 0).toBe(0);
    expect(first.cache_creation_input_tokens).toBeGreaterThanOrEqual(MIN_CACHEABLE_TOKENS);
    // The second request reads exactly what the first one wrote, and writes only what came after it.
    expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
    expect(second.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(third.cache_read_input_tokens).toBe(second.cache_read_input_tokens! + second.cache_creation_input_tokens!);
    // Cache tokens are part of the prompt: input + cache read + cache write is the whole estimate.
    for (const usage of [first, second, third]) expect(usage.input_tokens).toBeLessThan(usage.cache_read_input_tokens! + usage.cache_creation_input_tokens!);
  });

  it('can be switched off', async () => {
    const { bodies, items } = await session(twoReads, {}, { promptCaching: { system: false, lastMessages: 0 } });
    for (const body of bodies) expect([...marked(body.system), ...body.messages.flatMap((m) => marked(m.content))]).toEqual([]);
    for (const usage of usages(items)) expect([usage.cache_read_input_tokens ?? 0, usage.cache_creation_input_tokens ?? 0]).toEqual([0, 0]);
  });

  it('takes a custom placement (more messages, 1h ttl), never more than the 4 breakpoints the API allows', async () => {
    const { bodies, api } = await session(twoReads, {}, { promptCaching: { system: true, lastMessages: 9, ttl: '1h' } });
    expect(api.rejections()).toEqual([]);
    const last = bodies[2];
    const all = [...marked(last.system), ...last.messages.flatMap((m) => marked(m.content))];
    expect(all).toHaveLength(4);
    for (const block of all) expect(block.cache_control).toEqual({ type: 'ephemeral', ttl: '1h' });
  });

  it('never marks a thinking block, and leaves the messages it was given untouched', () => {
    const request = modelRequest({
      messages: [
        userText('u1', 'hi'),
        { type: 'assistant', uuid: 'a1', message: { id: 'm', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'ok' }], stop_reason: null } },
        { type: 'assistant', uuid: 'a2', message: { id: 'm', role: 'assistant', model: 'x', content: [{ type: 'thinking', thinking: 't', signature: 's' }], stop_reason: 'end_turn' } },
      ],
    });
    const before = JSON.stringify(request);
    const { body } = buildApiRequest(request, { querySource: 'sdk', tools: [], promptCaching: { system: false, lastMessages: 1, ttl: '5m' } });
    expect(body.messages[1].content).toEqual([{ type: 'text', text: 'ok', cache_control: { type: 'ephemeral' } }, { type: 'thinking', thinking: 't', signature: 's' }]);
    expect(JSON.stringify(request)).toBe(before);
  });
});

describe('extended thinking', () => {
  const thinkingReplies: FakeScriptInput = {
    model: [
      {
        content: [
          { type: 'thinking', thinking: 'Start with a.ts.', signature: 'sig-1' },
          { type: 'tool_use', name: 'Read', input: { path: 'a.ts' } },
        ],
      },
      {
        content: [
          { type: 'thinking', thinking: 'Now b.ts.', signature: 'sig-2' },
          { type: 'text', text: 'Reading b.' },
          { type: 'tool_use', name: 'Read', input: { path: 'b.ts' } },
        ],
      },
      { content: [{ type: 'redacted_thinking', data: 'opaque' }, { type: 'text', text: 'Both read.' }] },
    ],
  };
  const thinking = { type: 'enabled' as const, budget_tokens: 2_048 };

  it('sends the param on every main request, and thinking blocks round-trip with their signatures, each turn opening with them', async () => {
    const { bodies, api, terminal } = await session(thinkingReplies, { thinking });
    expect(terminal.reason).toBe('completed');
    expect(api.rejections()).toEqual([]);
    expect(bodies.map((body) => body.thinking)).toEqual([thinking, thinking, thinking]);
    expect(api.log.every((entry) => String(entry.headers['anthropic-beta']).includes(INTERLEAVED_THINKING_BETA))).toBe(true);
    // docs/loop.md §10: no assistant turn sent ends with a thinking block.
    for (const body of bodies) {
      for (const turn of body.messages.filter((m) => m.role === 'assistant')) expect(turn.content.at(-1)?.type).not.toMatch(/thinking/);
    }
    const assistantTurns = bodies[2].messages.filter((m) => m.role === 'assistant').map((m) => m.content.map(({ cache_control: _c, ...block }) => block));
    expect(assistantTurns).toEqual([
      [{ type: 'thinking', thinking: 'Start with a.ts.', signature: 'sig-1' }, { type: 'tool_use', id: expect.any(String), name: 'Read', input: { path: 'a.ts' } }],
      [
        { type: 'thinking', thinking: 'Now b.ts.', signature: 'sig-2' },
        { type: 'text', text: 'Reading b.' },
        { type: 'tool_use', id: expect.any(String), name: 'Read', input: { path: 'b.ts' } },
      ],
    ]);
  });

  it('sends the adaptive form as given', async () => {
    const { bodies, api } = await session(thinkingReplies, { thinking: { type: 'adaptive' } });
    expect(api.rejections()).toEqual([]);
    expect(bodies[0].thinking).toEqual({ type: 'adaptive' });
    expect(api.log[0].headers['anthropic-beta']).toBeUndefined();
  });

  it('is refused by the fake when the assistant turn of a tool-use loop does not open with its thinking', async () => {
    // The replies do not think although thinking is on: the continuation is what the real API refuses.
    const { api } = await session(twoReads, { thinking });
    expect(api.rejections().map((r) => r.rejected?.rule)).toEqual(['final_assistant_starts_with_thinking']);
  });

  it('with a budget not below max_tokens gets the real 400 (the caller must raise max_tokens)', async () => {
    const { api } = await session(thinkingReplies, { thinking: { type: 'enabled', budget_tokens: 40_000 } });
    expect(api.rejections().map((r) => r.rejected)).toEqual([{ rule: 'thinking_budget', message: expect.stringMatching(/^`max_tokens` must be greater than `thinking.budget_tokens`/) }]);
  });
});
