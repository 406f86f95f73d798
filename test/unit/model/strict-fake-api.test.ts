/**
 * The fake API refuses what the real Messages API refuses, with the real error texts (docs/fake-api.md), and
 * accepts what the real API accepts. Each rule is pinned here by name; the end-to-end cases go through the real
 * SDK and the model adapter.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/config/config.ts';
import { validateRequest, type RuleName } from '../../../src/fake-api/index.ts';
import { fakeApi, modelRequest, runCall, userText } from './helpers.ts';

const table = { models: DEFAULT_CONFIG.models, defaultModelInfo: DEFAULT_CONFIG.defaultModelInfo };
const model = 'claude-sonnet-4-6';
const user = (content: unknown) => ({ role: 'user', content });
const assistant = (content: unknown) => ({ role: 'assistant', content });
const text = (value: string) => ({ type: 'text', text: value });
const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: {} });
const toolResult = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const thinking = { type: 'thinking', thinking: 'Let me look.', signature: 'sig' };
const body = (messages: unknown[], extra: Record<string, unknown> = {}) => ({ model, max_tokens: 1_000, messages, stream: true, ...extra });
const THINKING = { thinking: { type: 'enabled', budget_tokens: 2_000 }, max_tokens: 4_000 };

const refused: Array<[RuleName, Record<string, unknown>, string]> = [
  // Sonnet 4.6 allows 128,000 output tokens (the original's table, utils/context.ts:170-172).
  ['max_tokens', body([user('hi')], { max_tokens: 128_001 }), 'max_tokens: 128001 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-4-6'],
  ['thinking_budget', body([user('hi')], { thinking: { type: 'enabled', budget_tokens: 1_000 }, max_tokens: 4_000 }), 'thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
  [
    'thinking_budget',
    body([user('hi')], { thinking: { type: 'enabled', budget_tokens: 2_000 }, max_tokens: 2_000 }),
    '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size',
  ],
  ['messages_present', body([]), 'messages: at least one message is required'],
  ['non_empty_content', body([user('hi'), assistant([]), user('again')]), 'messages.1: all messages must have non-empty content except for the optional final assistant message'],
  ['non_empty_content', body([user('')]), 'messages.0: all messages must have non-empty content except for the optional final assistant message'],
  ['non_empty_text', body([user([text('')])]), 'messages: text content blocks must be non-empty'],
  ['non_whitespace_text', body([user([text('hi')]), assistant([text('\n\n'), toolUse('toolu_1')]), user([toolResult('toolu_1')])]), 'messages: text content blocks must contain non-whitespace text'],
  ['tool_use_id_pattern', body([user('hi'), assistant([toolUse('call:1')]), user([toolResult('call:1')])]), "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"],
  [
    'unique_tool_use_ids',
    body([user('hi'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1')]), assistant([text('again'), toolUse('toolu_1')]), user([toolResult('toolu_1')])]),
    'messages.3.content.1: `tool_use` ids must be unique',
  ],
  [
    'tool_use_answered',
    body([user('hi'), assistant([toolUse('toolu_1'), toolUse('toolu_2')]), user([toolResult('toolu_1')])]),
    'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  ],
  [
    'tool_use_answered',
    body([user('hi'), assistant([toolUse('toolu_1')]), user([text('first some text'), toolResult('toolu_1')])]),
    'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
  ],
  [
    'tool_result_has_tool_use',
    body([user('hi'), assistant([text('hello')]), user([toolResult('toolu_9')])]),
    'messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_9. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
  ],
  [
    'thinking_first',
    body([user('hi'), assistant([text('a'), thinking, toolUse('toolu_1')]), user([toolResult('toolu_1')])]),
    'messages.1.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found text.',
  ],
  [
    'final_thinking_when_disabled',
    body([user('hi'), assistant([thinking])]),
    'messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.',
  ],
  [
    'final_assistant_starts_with_thinking',
    body([user('hi'), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1')])], THINKING),
    'messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking',
  ],
  [
    'cache_control_count',
    body([1, 2, 3, 4, 5].map((n) => user([{ ...text(`part ${n}`), cache_control: { type: 'ephemeral' } }]))),
    'A maximum of 4 blocks with cache_control may be provided. Found 5.',
  ],
];

const accepted: Array<[string, Record<string, unknown>]> = [
  ['consecutive user turns (merged, as the real API does)', body([user('one'), user([text('two')]), assistant([text('ok')]), user('three')])],
  ['consecutive assistant turns answered after the merge', body([user('hi'), assistant([text('reading')]), assistant([toolUse('toolu_1')]), user([toolResult('toolu_1'), text('and more')])])],
  ['an empty final assistant message (prefill)', body([user('hi'), assistant([])])],
  ['thinking blocks of earlier turns with thinking disabled', body([user('hi'), assistant([thinking, toolUse('toolu_1')]), user([toolResult('toolu_1')])])],
  ['a tool-use loop whose assistant turn opens with thinking', body([user('hi'), assistant([thinking, toolUse('toolu_1')]), user([toolResult('toolu_1')])], THINKING)],
  ['a new user prompt after a thinking-free turn, thinking enabled', body([user('hi'), assistant([text('hello')]), user('next')], THINKING)],
  ['max_tokens at the upper limit', body([user('hi')], { max_tokens: 64_000 })],
  ['four cache breakpoints', body([1, 2, 3, 4].map((n) => user([{ ...text(`part ${n}`), cache_control: { type: 'ephemeral' } }])))],
];

describe('the request rules of the strict fake API', () => {
  it.each(refused)('%s: refuses with the real text', (rule, request, message) => {
    expect(validateRequest(request, table)).toEqual({ rule, message });
  });

  it.each(accepted)('accepts %s', (_what, request) => {
    expect(validateRequest(request, table)).toBeNull();
  });
});

describe('refusals on the wire', () => {
  it('answers a refused request with the real 400 body, takes no scripted answer, and logs the rule', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'never served' }] }] }, { allowRejections: true });
    const response = await fetch(`${api.baseURL}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(refused.find(([rule]) => rule === 'tool_use_answered')![1]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^messages\.1: `tool_use` ids were found without `tool_result` blocks/) },
    });
    expect(api.remaining()).toBe(1);
    expect(api.rejections().map((r) => r.rejected?.rule)).toEqual(['tool_use_answered']);
  });

  it('reaches the loop as an invalid_request API-error message with the real text', async () => {
    const request = modelRequest({
      max_tokens: 130_000,
      model,
      messages: [userText('u1', 'hi')],
    });
    const { events } = await runCall({ model: [{ content: [{ type: 'text', text: 'never served' }] }] }, request, {}, { allowRejections: true });
    const message = events.find((event) => event.type === 'model_message');
    expect(message).toMatchObject({
      message: { apiError: { kind: 'invalid_request', text: 'max_tokens: 130000 > 128000, which is the maximum allowed number of output tokens for claude-sonnet-4-6' } },
    });
  });
});

describe('the context window', () => {
  const window = DEFAULT_CONFIG.models[model].contextWindow;
  const big = 'x'.repeat(4 * window + 400);

  it('refuses an estimated prompt over the window with "prompt is too long", which the adapter classifies as prompt_too_long', async () => {
    const { events, api } = await runCall({ model: [{ content: [{ type: 'text', text: 'never served' }] }] }, modelRequest({ model, messages: [userText('u1', big)] }), {}, { allowRejections: true });
    const [rejected] = api.rejections();
    expect(rejected.rejected?.message).toMatch(/^prompt is too long: \d+ tokens > 200000 maximum$/);
    expect(Number(/: (\d+) tokens/.exec(rejected.rejected!.message)![1])).toBeGreaterThan(window);
    expect(events.find((event) => event.type === 'model_message')).toMatchObject({ message: { apiError: { kind: 'prompt_too_long' } } });
  });

  it('counts the scripted usage of the answer the request would get', async () => {
    const over = await fakeApi({ model: [{ content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 150_000, cache_read_input_tokens: 50_001 } }] }, { allowRejections: true });
    const sdk = new Anthropic({ apiKey: 'k', baseURL: over.baseURL, maxRetries: 0 });
    await expect(sdk.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true })).rejects.toMatchObject({
      status: 400,
      error: { error: { message: 'prompt is too long: 200001 tokens > 200000 maximum' } },
    });
    const under = await fakeApi({ model: [{ content: [{ type: 'text', text: 'x' }], usage: { input_tokens: 180_000 } }] });
    const ok = new Anthropic({ apiKey: 'k', baseURL: under.baseURL, maxRetries: 0 });
    const message = await ok.messages.stream({ model, max_tokens: 10, messages: [{ role: 'user', content: big }] }).finalMessage();
    expect(message.usage.input_tokens).toBe(180_000);
  });

  it('takes the window from the model table it is given (per scenario)', async () => {
    const { startFakeAnthropicApi } = await import('../../../src/fake-api/index.ts');
    const small = await startFakeAnthropicApi(
      { model: [{ content: [{ type: 'text', text: 'x' }] }] },
      { models: { models: { tiny: { contextWindow: 1_000, maxOutputTokens: 100, maxOutputTokensUpperLimit: 200 } } } },
    );
    try {
      const sdk = new Anthropic({ apiKey: 'k', baseURL: small.baseURL, maxRetries: 0 });
      await expect(sdk.messages.create({ model: 'tiny', max_tokens: 10, messages: [{ role: 'user', content: 'y'.repeat(4_100) }], stream: true })).rejects.toMatchObject({
        error: { error: { message: expect.stringMatching(/^prompt is too long: \d+ tokens > 1000 maximum$/) } },
      });
      await expect(sdk.messages.create({ model: 'tiny', max_tokens: 201, messages: [{ role: 'user', content: 'hi' }], stream: true })).rejects.toMatchObject({
        error: { error: { message: 'max_tokens: 201 > 200, which is the maximum allowed number of output tokens for tiny' } },
      });
    } finally {
      await small.close();
    }
  });

  it('serves a scripted error answer as scripted, even for a prompt over the window', async () => {
    const scripted = { status: 400, error: { type: 'invalid_request_error', message: 'prompt is too long: 999999 tokens > 200000 maximum' } };
    const { api, events } = await runCall({ model: [scripted] }, modelRequest({ model, messages: [userText('u1', big)] }));
    expect(api.rejections()).toEqual([]);
    expect(api.remaining()).toBe(0);
    expect(events.find((event) => event.type === 'model_message')).toMatchObject({ message: { apiError: { text: scripted.error.message } } });
  });
});
