/**
 * How many promises a warm turn of `runLoopToEnd` makes (round 13, docs/benchmarks.md "Round 13: short runs (issue
 * 44)"): the model call's outputs go straight into the queue (`forwardModelCall`), the streamed tools' last results
 * too (`finishInto`), and a tool that answers at once is not awaited. Counted with an `async_hooks` hook between the
 * first and the last model call of a run after a few runs to warm up; the bench's own workload (a scripted model,
 * one concurrency-safe echo call per turn). A count, not a time: it does not depend on the machine's load.
 */
import { createHook } from 'node:async_hooks';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { ModelCaller } from '../../../src/data/deps.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { defineTool } from '../../../src/tools/index.ts';

const TURNS = 10;
const config = resolveConfig({ sessionId: 'promises' });
const echo = defineTool({
  name: 'echo',
  description: 'Answers its text unchanged.',
  inputSchema: z.object({ text: z.string() }),
  isConcurrencySafe: () => true,
  call: (input) => ({ content: input.text }),
});

/** A model that asks for one echo call per turn, then answers; `onCall` sees each call's number. */
function scripted(onCall: (call: number) => void): ModelCaller {
  let call = 0;
  return async function* (request) {
    call += 1;
    onCall(call);
    const usage = { input_tokens: 10, output_tokens: 2 };
    const tool = call <= TURNS;
    const content = tool ? [{ type: 'tool_use' as const, id: `call_${call}`, name: 'echo', input: { text: `ping ${call}` } }] : [{ type: 'text' as const, text: 'done' }];
    const stopReason = tool ? 'tool_use' : 'end_turn';
    yield { kind: 'event', event: { type: 'model_message', message: { type: 'assistant', uuid: `m${call}`, message: { id: `m${call}`, role: 'assistant', model: request.model, content, stop_reason: stopReason, usage } } } };
    yield { kind: 'event', event: { type: 'model_done', usage, stopReason } };
  };
}

async function promisesPerTurn(): Promise<number> {
  let counting = false;
  let count = 0;
  const run = (onCall: (call: number) => void) => runLoopToEnd({ prompt: 'Echo.', config, tools: [echo], deps: { callModel: scripted(onCall) } });
  for (let i = 0; i < 5; i++) await run(() => undefined);
  const hook = createHook({
    init(_id, type) {
      if (counting && type === 'PROMISE') count += 1;
    },
  });
  hook.enable();
  try {
    const { terminal } = await run((call) => void (counting = call <= TURNS));
    expect(terminal.reason).toBe('completed');
  } finally {
    hook.disable();
  }
  return count / TURNS;
}

describe('a warm turn of runLoopToEnd', () => {
  it('makes at most 51 promises (round 12: 71.5 in this count, round 13: 53.5, each change two or more; the model call, the last tool results and a tool answering at once each took a few more; round 17: 50.5, the default answers of defineTool not called, their two hops kept by two awaits, each counted as a promise here)', async () => {
    const perTurn = await promisesPerTurn();
    expect(perTurn).toBeGreaterThan(10);
    expect(perTurn).toBeLessThanOrEqual(51);
  });
});
