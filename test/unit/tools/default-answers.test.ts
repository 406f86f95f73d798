/**
 * A tool defined without `validateInput` or `checkPermissions` (round 17): the pipeline does not call `defineTool`'s
 * defaults, whose answers are known (every input valid, every call allowed), and leaves out the permission decision
 * when nothing else has a say (no pre-tool hook decision, no `canUseTool`). That is two microtask hops and five
 * promises less per call; the hops decide whether a tool's result reaches the run's queue before or after the model's
 * next event (an order the session log records: `test/unit/replay/log-v3-compat.test.ts`), so they are counted here:
 * a tool with its own answers, and every failure, take as many as before.
 */
import { createHook } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../../src/tools/define-tool.ts';
import { runOwnedToolUse } from '../../../src/tools/run-tool-use.ts';
import { LazyAbortController } from '../../../src/tools/lazy-abort-controller.ts';
import type { ToolCallDeps } from '../../../src/tools/call-deps.ts';
import { depsFor, resultText, toolUse } from './fixtures.ts';

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

describe("a tool with defineTool's default answers", () => {
  it('gets its result two hops sooner than one answering the same itself, and the same result', async () => {
    const mine = await hopsOf(own);
    const defaults = await hopsOf(plain);
    expect(defaults.text).toBe('hi');
    expect(mine.text).toBe('hi');
    expect(mine.hops - defaults.hops).toBe(2);
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

  it('makes five promises fewer per call than a tool answering itself', async () => {
    await promisesOf(plain);
    await promisesOf(own);
    expect((await promisesOf(own)) - (await promisesOf(plain))).toBeGreaterThanOrEqual(5);
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
