/**
 * The interpreter's model call puts each output straight into its queue (`forwardModelCall`) instead of iterating
 * the executor's async generator (`executeModelCall`, which the journaled driver still reads): the two give the same
 * outputs in the same order whatever the caller does, and the forward reads the caller's stream on only once the
 * previous output was taken (backpressure).
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { ModelCaller, ModelStreamItem } from '../../../src/data/deps.ts';
import type { EffectOf } from '../../../src/data/effects.ts';
import type { AssistantMessage } from '../../../src/messages/types.ts';
import type { ExecutorEnv, ExecutorOutput } from '../../../src/runtime/executor-kinds.ts';
import { executeModelCall, forwardModelCall } from '../../../src/runtime/model-call-executor.ts';
import { ToolUseIdRegistry } from '../../../src/runtime/unique-tool-use-ids.ts';
import { createToolRuntime, defineTool } from '../../../src/tools/index.ts';

const config = resolveConfig({ sessionId: 'forward' });
const echo = defineTool({ name: 'echo', description: 'echo', inputSchema: z.object({ text: z.string() }), isConcurrencySafe: () => true, call: (input) => ({ content: input.text }) });
const effect = { type: 'call_model', id: 'e1', request: { model: config.model, messages: [] }, querySource: 'repl_main_thread' } as unknown as EffectOf<'call_model'>;
const params = { fallbackModel: undefined, thinking: undefined, effort: undefined };

function reply(id: string, toolUseId: string | null): AssistantMessage {
  const content = toolUseId ? [{ type: 'tool_use' as const, id: toolUseId, name: 'echo', input: { text: id } }] : [{ type: 'text' as const, text: id }];
  return { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: config.model, content, stop_reason: toolUseId ? 'tool_use' : 'end_turn' } };
}

const DONE: ModelStreamItem = { kind: 'event', event: { type: 'model_done', usage: { input_tokens: 1, output_tokens: 1 }, stopReason: 'tool_use' } };

/** Callers that stream, refuse, fail at once, fail midway; each makes its items anew per call. */
const CALLERS: Record<string, () => ModelCaller> = {
  'stream events, two replies with the same tool_use id, the end': () => async function* () {
    yield { kind: 'stream_event', event: { type: 'message_start' } };
    yield { kind: 'event', event: { type: 'model_message', message: reply('m1', 'dup') } };
    yield { kind: 'event', event: { type: 'model_message', message: reply('m2', 'dup') } };
    yield DONE;
  },
  'a reply the log could not give back (refused, nothing more read)': () => async function* () {
    yield { kind: 'event', event: { type: 'model_message', message: { ...reply('m1', null), extra: () => 1 } as unknown as AssistantMessage } };
    yield DONE;
  },
  'a caller that throws instead of streaming': () => () => {
    throw new Error('no stream');
  },
  'a stream that fails after a reply': () => async function* () {
    yield { kind: 'event', event: { type: 'model_message', message: reply('m1', 'a') } };
    throw new Error('connection reset');
  },
};

function env(callModel: ModelCaller, signal: AbortSignal): ExecutorEnv {
  return {
    config,
    deps: { callModel, clock: { now: () => 1_700_000_000_000, sleep: async () => undefined }, newId: () => 'id' },
    tools: createToolRuntime({ tools: [echo], newId: () => 'id' }),
    signal,
    options: {},
    toolUseIds: new ToolUseIdRegistry([]),
    runToken: {},
  } as unknown as ExecutorEnv;
}

async function viaGenerator(caller: ModelCaller, signal: AbortSignal, run: { done: boolean }): Promise<ExecutorOutput[]> {
  const outputs: ExecutorOutput[] = [];
  for await (const output of executeModelCall(effect, env(caller, signal), params, run)) outputs.push(output);
  return outputs;
}

async function viaForward(caller: ModelCaller, signal: AbortSignal, run: { done: boolean }): Promise<ExecutorOutput[]> {
  const outputs: ExecutorOutput[] = [];
  await forwardModelCall(effect, env(caller, signal), params, run, { put: async (output) => void outputs.push(output) });
  return outputs;
}

describe('forwardModelCall', () => {
  for (const [name, caller] of Object.entries(CALLERS)) {
    it(`gives executeModelCall's outputs: ${name}`, async () => {
      const expected = await viaGenerator(caller(), new AbortController().signal, { done: false });
      const actual = await viaForward(caller(), new AbortController().signal, { done: false });
      expect(actual).toEqual(expected);
      expect(actual.length).toBeGreaterThan(0);
    });
  }

  it('calls nothing when the run is already aborted, and stops once the run is over', async () => {
    const aborted = AbortSignal.abort('interrupt');
    const stream = CALLERS['stream events, two replies with the same tool_use id, the end']!;
    expect(await viaForward(stream(), aborted, { done: false })).toEqual([]);
    expect(await viaGenerator(stream(), aborted, { done: false })).toEqual([]);
    const run = { done: false };
    const outputs: ExecutorOutput[] = [];
    await forwardModelCall(effect, env(stream(), new AbortController().signal), params, run, {
      put: async (output) => {
        outputs.push(output);
        if (outputs.length === 2) run.done = true;
      },
    });
    expect(outputs.map((output) => output.kind)).toEqual(['item', 'event']);
  });

  it('reads the stream on only after the previous output was taken', async () => {
    const read: string[] = [];
    const caller: ModelCaller = async function* () {
      read.push('message');
      yield { kind: 'event', event: { type: 'model_message', message: reply('m1', 'a') } };
      read.push('done');
      yield DONE;
    };
    let release!: () => void;
    const taken = new Promise<void>((resolve) => (release = resolve));
    const forwarded = forwardModelCall(effect, env(caller, new AbortController().signal), params, { done: false }, { put: (output) => (output.kind === 'event' && output.event.type === 'model_message' ? taken : Promise.resolve()) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(read).toEqual(['message']);
    release();
    await forwarded;
    expect(read).toEqual(['message', 'done']);
  });
});
