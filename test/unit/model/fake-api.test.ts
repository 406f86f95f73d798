import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { FakeScriptError, parseFakeScript, replyToSseEvents } from '../../../src/fake-api/index.ts';
import { fakeApi } from './helpers.ts';

const client = (baseURL: string) => new Anthropic({ apiKey: 'k', baseURL, maxRetries: 0 });
const params = (text = 'hi') => ({ model: 'claude-test', max_tokens: 100, messages: [{ role: 'user' as const, content: text }] });

describe('the fake Anthropic API', () => {
  it('streams SSE that the SDK assembles into the scripted message (text, thinking, tool input from pieces)', async () => {
    const input = { path: '/src/index.ts', lines: [1, 2, 3], options: { follow: true } };
    const api = await fakeApi({
      model: [
        {
          id: 'msg_sdk',
          content: [
            { type: 'thinking', thinking: 'A thought that spans a few pieces of text.', signature: 'sig' },
            { type: 'text', text: 'Reading it.' },
            { type: 'tool_use', id: 'toolu_9', name: 'Read', input },
          ],
          usage: { input_tokens: 11, output_tokens: 22 },
        },
      ],
    });
    const message = await client(api.baseURL).messages.stream(params()).finalMessage();
    expect(message.id).toBe('msg_sdk');
    expect(message.model).toBe('claude-test');
    expect(message.stop_reason).toBe('tool_use');
    expect(message.usage).toMatchObject({ input_tokens: 11, output_tokens: 22 });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'A thought that spans a few pieces of text.', signature: 'sig' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_9', name: 'Read', input },
    ]);
  });

  it('uses the wire format of the real API, event name matching data.type', () => {
    const events = replyToSseEvents(
      { content: [{ type: 'tool_use', name: 'Bash', input: { command: 'pwd' } }] },
      { requestBody: { messages: [] }, messageId: 'msg_1', model: 'm' },
    );
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    const pieces = events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { partial_json: string }).partial_json);
    expect(JSON.parse(pieces.join(''))).toEqual({ command: 'pwd' });
    expect(events[1].data.content_block).toEqual({ type: 'tool_use', id: 'toolu_1_0', name: 'Bash', input: {} });
  });

  it('records every request body in order and answers 500 api_error once its list is exhausted', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'one' }] }] });
    const sdk = client(api.baseURL);
    await sdk.messages.create({ ...params('first'), stream: true }).then(async (stream) => {
      for await (const _ of stream) void _;
    });
    expect(api.exhausted).toBe(false);
    expect(api.remaining()).toBe(0);
    const failure = await sdk.messages.create({ ...params('second'), stream: true }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Anthropic.InternalServerError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).type).toBe('api_error');
    expect(api.exhausted).toBe(true);
    expect(api.requests.map((body) => (body as { messages: Array<{ content: string }> }).messages[0].content)).toEqual(['first', 'second']);
  });

  it('serves scripted errors as the API error body with their status', async () => {
    const api = await fakeApi({ model: [{ status: 529, error: { type: 'overloaded_error', message: 'Overloaded' } }] });
    const response = await fetch(`${api.baseURL}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...params(), stream: true }) });
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('serves raw SSE byte for byte', async () => {
    const sse = 'event: ping\ndata: {"type": "ping"}\n\n: a comment\n\n';
    const api = await fakeApi({ model: [{ sse }] });
    const response = await fetch(`${api.baseURL}/v1/messages`, { method: 'POST', body: JSON.stringify({ ...params(), stream: true }) });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(sse);
  });

  it('routes requests marked x-turnloop-query-source: compact to the compaction list', async () => {
    const api = await fakeApi({
      model: [{ content: [{ type: 'text', text: 'main' }] }],
      compactionModel: [{ content: [{ type: 'text', text: 'summary' }] }],
    });
    const sdk = client(api.baseURL);
    const compacted = await sdk.messages.stream(params(), { headers: { 'x-turnloop-query-source': 'compact' } }).finalMessage();
    const main = await sdk.messages.stream(params()).finalMessage();
    expect(compacted.content).toMatchObject([{ text: 'summary' }]);
    expect(main.content).toMatchObject([{ text: 'main' }]);
    expect(api.log.map((entry) => entry.queue)).toEqual(['compactionModel', 'model']);
  });

  it('answers a child run from its own list by x-turnloop-agent-run, each with its own message ids; an unscripted run takes the main list', async () => {
    const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
    const api = await fakeApi({ model: [text('main 1'), text('main 2')], agentRuns: { toolu_a: [text('a 1'), text('a 2')] } });
    api.scriptAgentRun('toolu_b', [text('b 1')]);
    expect(() => api.scriptAgentRun('toolu_b', [])).toThrow(FakeScriptError);
    expect(() => api.scriptAgentRun('toolu_b', [])).toThrow(/agentRuns\.toolu_b: this agent run is scripted twice/);
    expect(() => api.scriptAgentRun('toolu_c', [{ content: 'nope' } as never])).toThrow(FakeScriptError);
    const sdk = client(api.baseURL);
    const run = (key?: string) => sdk.messages.stream(params(), key ? { headers: { 'x-turnloop-agent-run': key } } : {}).finalMessage();
    const b = await run('toolu_b');
    const a = await run('toolu_a');
    const unknown = await run('toolu_z');
    const main = await run();
    const a2 = await run('toolu_a');
    expect([b, a, unknown, main, a2].map((m) => (m.content[0] as { text: string }).text)).toEqual(['b 1', 'a 1', 'main 1', 'main 2', 'a 2']);
    expect([b.id, a.id, unknown.id, a2.id]).toEqual(['msg_fake_toolu_b_1', 'msg_fake_toolu_a_1', 'msg_fake_1', 'msg_fake_toolu_a_2']);
    expect(api.log.map((entry) => entry.agentRun)).toEqual(['toolu_b', 'toolu_a', undefined, undefined, 'toolu_a']);
    await expect(run('toolu_b')).rejects.toThrow(/no answer left in .{1,3}model.{1,3} of agent run toolu_b/);
    expect(api.log.at(-1)).toMatchObject({ agentRun: 'toolu_b', exhausted: true });
    expect(api.remaining()).toBe(0);
  });

  it('computes input usage from the request, so a longer history reports more input tokens', async () => {
    const reply = { content: [{ type: 'text' as const, text: 'ok' }] };
    const api = await fakeApi({ model: [reply, reply] });
    const sdk = client(api.baseURL);
    const short = await sdk.messages.stream(params('x'.repeat(10))).finalMessage();
    const long = await sdk.messages.stream(params('x'.repeat(4_000))).finalMessage();
    expect(long.usage.input_tokens - short.usage.input_tokens).toBeGreaterThanOrEqual(990);
    expect(short.usage.output_tokens).toBe(1);
  });

  it('destroys the socket after cut_after_events events', async () => {
    const api = await fakeApi({ model: [{ content: [{ type: 'text', text: 'abc' }], cut_after_events: 2 }] });
    const stream = await client(api.baseURL).messages.create({ ...params(), stream: true });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of stream) seen.push(event.type);
      })(),
    ).rejects.toThrow();
    expect(seen).toEqual(['message_start', 'content_block_start']);
  });

  it('rejects an invalid script, saying where and what was expected', () => {
    const bad = { model: [{ content: [{ type: 'text', text: 3 }] }, { content: [{ type: 'picture' }] }, { nothing: true }], other: [] };
    let error: unknown;
    try {
      parseFakeScript(bad, 'scenario.json');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FakeScriptError);
    const issues = (error as FakeScriptError).issues;
    expect(issues).toContainEqual({ path: 'model[0].content[0].text', message: expect.stringMatching(/expected string/) });
    expect(issues).toContainEqual({ path: 'model[1].content[0].type', message: expect.stringMatching(/one of text, thinking/) });
    expect(issues).toContainEqual({ path: 'model[2]', message: expect.stringMatching(/expected a reply/) });
    expect(issues.some((issue) => issue.message.includes('other'))).toBe(true);
    expect((error as Error).message).toContain('scenario.json');
  });
});
