/**
 * The span tree of an example session, taken with the real OpenTelemetry SDK's in-memory exporter: a scripted model
 * (loopback fake API) uses two tools (one fails), the reported usage pushes the next turn over the autocompact
 * threshold, the compaction runs, and the model finishes. `query({ telemetry })` maps it to `invoke_agent`, `chat`,
 * `execute_tool` and `compaction` spans; transitions are span events; content stays out unless asked for, and is
 * redacted when it is in.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runQuery } from '../../../src/api/query.ts';
import { createAnthropicModelCaller } from '../../../src/model/index.ts';
import { defineTool } from '../../../src/tools/index.ts';
import { startFakeAnthropicApi, type FakeApi } from '../../../src/fake-api/index.ts';
import { traceRun } from '../../../src/otel/index.ts';

const echo = defineTool({
  name: 'echo',
  description: 'Repeats its text.',
  inputSchema: z.object({ text: z.string() }),
  isConcurrencySafe: () => true,
  call: ({ text }) => ({ content: `echo: ${text}` }),
});
const broken = defineTool({
  name: 'broken',
  description: 'Always fails.',
  inputSchema: z.object({}),
  call: () => {
    throw new Error('disk on fire');
  },
});

const SECRET = 'sk-ant-api03-abcdefghijklmnop';

async function exampleSession(api: FakeApi, exporter: InMemorySpanExporter, captureContent?: boolean) {
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const { terminal } = await runQuery({
    prompt: `Look at the logs (key ${SECRET})`,
    systemPrompt: ['You are a test agent.'],
    tools: [echo, broken],
    config: { sessionId: 'otel-session' },
    telemetry: { tracer: provider.getTracer('test'), ...(captureContent === undefined ? {} : { captureContent }) },
    deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
  });
  await provider.forceFlush(); // not shutdown(): that clears the in-memory exporter
  return terminal;
}

function script() {
  return {
    model: [
      {
        id: 'msg_first',
        content: [
          { type: 'tool_use' as const, id: 'toolu_echo', name: 'echo', input: { text: `hi ${SECRET}` } },
          { type: 'tool_use' as const, id: 'toolu_broken', name: 'broken', input: {} },
        ],
        usage: { input_tokens: 170_000, output_tokens: 40, cache_read_input_tokens: 1_000 },
      },
      { id: 'msg_last', content: [{ type: 'text' as const, text: 'All done.' }], usage: { input_tokens: 900, output_tokens: 12 } },
    ],
    compactionModel: [{ content: [{ type: 'text' as const, text: 'Summary: the user asked about logs; echo worked, broken failed.' }] }],
  };
}

describe('OpenTelemetry spans of a run', () => {
  let api: FakeApi;
  let exporter: InMemorySpanExporter;
  beforeEach(async () => {
    api = await startFakeAnthropicApi(script());
    exporter = new InMemorySpanExporter();
  });
  afterEach(async () => api.close());

  it('builds the tree: invoke_agent > chat, execute_tool, compaction, with GenAI attributes', async () => {
    const terminal = await exampleSession(api, exporter);
    expect(terminal).toEqual({ reason: 'completed' });
    expect(api.log.map((r) => r.queue)).toEqual(['model', 'compactionModel', 'model']);

    const spans = exporter.getFinishedSpans();
    const root = spans.filter((s) => s.parentSpanContext === undefined);
    expect(root.map((s) => s.name)).toEqual(['invoke_agent turnloop']);
    const agent = root[0];
    const idOf = (span: ReadableSpan) => span.spanContext().spanId;
    expect(spans.every((s) => s.spanContext().traceId === agent.spanContext().traceId)).toBe(true);
    const children = spans.filter((s) => s.parentSpanContext?.spanId === idOf(agent));
    const byStart = [...children].sort((a, b) => hr(a.startTime) - hr(b.startTime));
    expect(byStart.map((s) => s.name)).toEqual(['chat claude-sonnet-4-6', 'execute_tool echo', 'execute_tool broken', 'compaction', 'chat claude-sonnet-4-6']);

    // The compaction's summarising call is a forked run: its own invoke_agent span, with its chat, inside the compaction.
    const compactionSpan = byStart[3];
    const fork = spans.filter((s) => s.parentSpanContext?.spanId === idOf(compactionSpan));
    expect(fork.map((s) => s.name)).toEqual(['invoke_agent turnloop']);
    expect(fork[0].attributes['turnloop.query_source']).toBe('compact');
    const forkChildren = spans.filter((s) => s.parentSpanContext?.spanId === idOf(fork[0]));
    expect(forkChildren.map((s) => s.name)).toEqual(['chat claude-sonnet-4-6']);
    expect(forkChildren[0].attributes['turnloop.query_source']).toBe('compact');
    expect(spans).toHaveLength(1 + byStart.length + 1 + 1);

    expect(agent.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.agent.name': 'turnloop',
      'gen_ai.conversation.id': 'otel-session',
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.usage.input_tokens': 170_900,
      'gen_ai.usage.output_tokens': 52,
      'turnloop.terminal.reason': 'completed',
    });
    expect(agent.status.code).not.toBe(SpanStatusCode.ERROR);

    const [firstChat, , , compaction, lastChat] = byStart;
    expect(firstChat.kind).toBe(2); // SpanKind.CLIENT
    expect(firstChat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'claude-sonnet-4-6',
      'gen_ai.response.id': 'msg_first',
      'gen_ai.usage.input_tokens': 170_000,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 1_000,
      'gen_ai.response.finish_reasons': ['tool_use'],
      'turnloop.model_call': 1,
    });
    expect(typeof firstChat.attributes['gen_ai.request.max_tokens']).toBe('number');
    expect(lastChat.attributes).toMatchObject({ 'gen_ai.response.id': 'msg_last', 'gen_ai.response.finish_reasons': ['end_turn'], 'turnloop.model_call': 2 });

    const tool = (name: string) => children.find((s) => s.name === `execute_tool ${name}`) as ReadableSpan;
    expect(tool('echo').attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'echo', 'gen_ai.tool.call.id': 'toolu_echo' });
    expect(tool('echo').status.code).not.toBe(SpanStatusCode.ERROR);
    expect(tool('broken').status.code).toBe(SpanStatusCode.ERROR);
    expect(tool('broken').attributes['error.type']).toBe('tool_error');

    expect(compaction.attributes).toMatchObject({ 'turnloop.compaction.kind': 'autocompact', 'turnloop.compaction.trigger': 'auto' });
    expect(compaction.attributes['turnloop.compaction.tokens_before']).toBeGreaterThanOrEqual(170_000);
    expect(compaction.status.code).not.toBe(SpanStatusCode.ERROR);

    // Parents enclose their children in time (within 5 ms: the SDK anchors each span's clock when it starts, so two
    // spans' times may disagree by a fraction of a millisecond).
    const slack = 5e6;
    for (const child of children) {
      expect(hr(child.startTime)).toBeGreaterThanOrEqual(hr(agent.startTime) - slack);
      expect(hr(child.endTime)).toBeLessThanOrEqual(hr(agent.endTime) + slack);
    }
  });

  it('records the statechart transitions as span events with Continue and Terminal reasons', async () => {
    await exampleSession(api, exporter);
    const agent = exporter.getFinishedSpans().find((s) => s.parentSpanContext === undefined) as ReadableSpan;
    const transitions = agent.events.filter((e) => e.name === 'transition');
    expect(transitions.length).toBeGreaterThan(3);
    expect(transitions[0].attributes).toMatchObject({ 'turnloop.event': 'start', 'turnloop.state.from': 'none', 'turnloop.step.index': 0 });
    const continues = transitions.filter((e) => e.attributes?.['turnloop.continue.reason'] !== undefined);
    expect(continues.map((e) => e.attributes?.['turnloop.continue.reason'])).toEqual(['next_turn']);
    expect(continues[0].attributes?.['turnloop.turn']).toBe(2);
    const last = transitions[transitions.length - 1];
    expect(last.attributes).toMatchObject({ 'turnloop.terminal.reason': 'completed', 'turnloop.state.to': 'completed' });
    // Each event moves from the state the previous one reached.
    for (let i = 1; i < transitions.length; i++) {
      expect(transitions[i].attributes?.['turnloop.state.from']).toBe(transitions[i - 1].attributes?.['turnloop.state.to']);
    }
  });

  it('keeps prompts, outputs and tool contents out of the spans by default', async () => {
    await exampleSession(api, exporter);
    const keys = exporter.getFinishedSpans().flatMap((s) => Object.keys(s.attributes));
    for (const key of ['gen_ai.input.messages', 'gen_ai.output.messages', 'gen_ai.system_instructions', 'gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
      expect(keys).not.toContain(key);
    }
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.events]))).not.toContain('Look at the logs');
  });

  it('captures content when asked, with secrets redacted', async () => {
    await exampleSession(api, exporter, true);
    const spans = exporter.getFinishedSpans();
    const firstChat = spans.find((s) => s.attributes['gen_ai.response.id'] === 'msg_first') as ReadableSpan;
    // The session-log redactor masks a secret with a same-length mask that starts with [REDACTED].
    const unmask = (value: unknown) => JSON.parse(String(value).replace(/\[REDACTED\]\**/g, '[REDACTED]'));
    const input = unmask(firstChat.attributes['gen_ai.input.messages']);
    expect(input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Look at the logs (key [REDACTED])' }] }]);
    expect(JSON.parse(String(firstChat.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: 'You are a test agent.' }]);
    const output = unmask(firstChat.attributes['gen_ai.output.messages']);
    expect(output).toEqual([
      {
        role: 'assistant',
        finish_reason: 'tool_use',
        parts: [
          { type: 'tool_call', id: 'toolu_echo', name: 'echo', arguments: { text: 'hi [REDACTED]' } },
          { type: 'tool_call', id: 'toolu_broken', name: 'broken', arguments: {} },
        ],
      },
    ]);
    const echoSpan = spans.find((s) => s.name === 'execute_tool echo') as ReadableSpan;
    expect(unmask(echoSpan.attributes['gen_ai.tool.call.arguments'])).toEqual({ text: 'hi [REDACTED]' });
    expect(unmask(echoSpan.attributes['gen_ai.tool.call.result'])).toBe('echo: hi [REDACTED]');
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain(SECRET);
  });

  it('is a plain run observer too, and a throwing tracer never breaks the run', async () => {
    const failing = {
      startSpan: () => {
        throw new Error('tracer down');
      },
      startActiveSpan: () => {
        throw new Error('tracer down');
      },
    } as never;
    const { terminal } = await runQuery({
      prompt: 'hi',
      tools: [echo, broken],
      observers: [traceRun({ tracer: failing })],
      deps: { callModel: createAnthropicModelCaller({ apiKey: 'test', baseURL: api.baseURL }) },
    });
    expect(terminal).toEqual({ reason: 'completed' });
  });
});

function hr(time: [number, number]): number {
  return time[0] * 1e9 + time[1];
}
