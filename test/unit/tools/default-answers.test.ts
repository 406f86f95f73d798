/**
 * A tool defined without `validateInput` or `checkPermissions` (round 17): the pipeline does not call `defineTool`'s
 * defaults, whose answers are known (every input valid, every call allowed), and leaves out the permission decision
 * when nothing else has a say (no pre-tool hook decision, no `canUseTool`), awaiting the known answers in their
 * place. The hops stay as they were: they decide whether a tool's result reaches the run's queue before or after
 * the model's next event, an order the session log records. Leaving out the decision's two hops swapped
 * `tool_result` and `model_done` for a model waiting 6 or 7 hops between its tool_use and its end (the run below),
 * so they are counted here: every kind of tool takes as many as before.
 */
import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../../src/tools/define-tool.ts';
import { runOwnedToolUse } from '../../../src/tools/run-tool-use.ts';
import { LazyAbortController } from '../../../src/tools/lazy-abort-controller.ts';
import type { ToolCallDeps } from '../../../src/tools/call-deps.ts';
import { depsFor, resultText, toolUse } from './fixtures.ts';
import { resolveConfig } from '../../../src/config/config.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';

const schema = z.object({ text: z.string() });
const plain = defineTool({ name: 'Plain', description: '', inputSchema: schema, call: ({ text }) => ({ content: text }) });
const own = defineTool({
  name: 'Own',
  description: '',
  inputSchema: schema,
  validateInput: () => ({ ok: true }),
  checkPermissions: () => ({ behavior: 'allow' }),
  call: ({ text }) => ({ content: text }),
});
const throwing = defineTool({ name: 'Throws', description: '', inputSchema: schema, call: () => { throw new Error('no'); } });
const asyncPlain = defineTool({ name: 'Later', description: '', inputSchema: schema, call: async ({ text }) => ({ content: text }) });

/** The microtask hop at which the call's outcome is seen (a counter ticking one hop at a time beside it). */
async function hopsOf(tool: Tool, extra: Partial<ToolCallDeps> = {}): Promise<{ hops: number; text: string }> {
  let hops = 0;
  let running = true;
  const tick = (): void => {
    if (!running) return;
    hops += 1;
    queueMicrotask(tick);
  };
  queueMicrotask(tick);
  const outcome = await runOwnedToolUse(toolUse('t1', tool.name, { text: 'hi' }), depsFor([tool], extra), new LazyAbortController(), {});
  running = false;
  return { hops, text: resultText(outcome.event) };
}

async function promisesOf(tool: Tool): Promise<number> {
  let count = 0;
  const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && (count += 1)) });
  hook.enable();
  try {
    await runOwnedToolUse(toolUse('t1', tool.name, { text: 'hi' }), depsFor([tool]), new LazyAbortController(), {});
  } finally {
    hook.disable();
  }
  return count;
}

/** The first three events after the model's tool_use (of one tool call), the model waiting `wait` hops before its end. */
async function eventOrder(tool: Tool, wait: number): Promise<string[]> {
  let served = 0;
  const reply = (id: string, block: object, stopReason: string) => ({
    kind: 'event',
    event: { type: 'model_message', message: { type: 'assistant', uuid: `${id}:0`, message: { id, role: 'assistant', model: 'm', content: [block], stop_reason: stopReason, usage: { input_tokens: 1, output_tokens: 1 } } } },
  });
  const callModel = async function* () {
    served += 1;
    const stopReason = served === 1 ? 'tool_use' : 'end_turn';
    yield reply(`m${served}`, served === 1 ? { type: 'tool_use', id: 't1', name: tool.name, input: { text: 'hi' } } : { type: 'text', text: 'ok' }, stopReason);
    for (let i = 0; i < wait; i++) await null;
    yield { kind: 'event', event: { type: 'model_done', usage: { input_tokens: 1, output_tokens: 1 }, stopReason } };
  };
  const types: string[] = [];
  let n = 0;
  await runLoopToEnd({
    prompt: 'go',
    config: resolveConfig({ sessionId: 'order' }),
    tools: [{ ...tool, isConcurrencySafe: () => true }],
    deps: { callModel: callModel as never, newId: () => `id-${++n}`, clock: { now: () => 1, sleep: async () => undefined } },
    onStep: (record) => void (record.event && record.event.type !== 'context_layer_result' && types.push(record.event.type)),
  });
  return types.slice(0, 3);
}

describe("a tool with defineTool's default answers", () => {
  it('gets the same result at the same hop as one answering the same itself', async () => {
    const mine = await hopsOf(own);
    const defaults = await hopsOf(plain);
    expect(defaults.text).toBe('hi');
    expect(mine.text).toBe('hi');
    expect(defaults.hops).toBe(mine.hops);
  });

  it("keeps a run's event order: the result against a model event a few hops behind", async () => {
    for (let wait = 0; wait <= 10; wait++) expect(await eventOrder(plain, wait)).toEqual(await eventOrder(own, wait));
    expect(await eventOrder(plain, 6)).toEqual(['model_message', 'model_done', 'tool_result']);
  });

  it('keeps every other timing as it was: a canUseTool, a throwing tool, a tool answering later', async () => {
    // Before round 17 (plain = own = 7 hops here): canUseTool own + 1, a throw and a missing result as plain, a
    // tool's promise plain + 1.
    const ownHops = (await hopsOf(own)).hops;
    const plainHops = (await hopsOf(plain)).hops;
    expect((await hopsOf(plain, { canUseTool: () => ({ behavior: 'allow' }) })).hops).toBe(ownHops + 1);
    const failed = await hopsOf(throwing);
    expect(failed.text).toContain('no');
    expect(failed.hops).toBe(plainHops);
    const later = await hopsOf(asyncPlain);
    expect(later.text).toBe('hi');
    expect(later.hops).toBe(plainHops + 1);
  });

  it('makes fewer promises per call than a tool answering itself', async () => {
    await promisesOf(plain);
    await promisesOf(own);
    // 3 in this count, which has each of the two awaits of the known answer make a promise (async hooks on).
    expect((await promisesOf(own)) - (await promisesOf(plain))).toBeGreaterThanOrEqual(3);
  });

  it('still asks canUseTool, and a denial still wins', async () => {
    const denied = await hopsOf(plain, { canUseTool: () => ({ behavior: 'deny', message: 'not today' }) });
    expect(denied.text).toContain('not today');
  });
});

describe("a spec changed after defineTool (its answers are looked up when asked, as before round 17)", () => {
  it('asks a validateInput or checkPermissions added later', async () => {
    const spec: Parameters<typeof defineTool<typeof schema>>[0] = { name: 'Added', description: '', inputSchema: schema, call: ({ text }) => ({ content: text }) };
    const tool = defineTool(spec);
    spec.validateInput = () => ({ ok: false, message: 'refused later' });
    expect((await hopsOf(tool)).text).toBe('Error: refused later');
    delete spec.validateInput;
    spec.checkPermissions = () => ({ behavior: 'deny', message: 'denied later' });
    expect((await hopsOf(tool)).text).toContain('denied later');
  });

  it('answers as the default once its own validateInput or checkPermissions is removed', async () => {
    const spec: Parameters<typeof defineTool<typeof schema>>[0] = {
      name: 'Removed',
      description: '',
      inputSchema: schema,
      validateInput: () => ({ ok: false, message: 'no' }),
      checkPermissions: () => ({ behavior: 'deny', message: 'no' }),
      call: ({ text }) => ({ content: text }),
    };
    const tool = defineTool(spec);
    delete spec.validateInput;
    delete spec.checkPermissions;
    expect((await hopsOf(tool)).text).toBe('hi');
  });
});
