/**
 * The interpreter's per-event path (round 17): when nobody observes the run (no `onStep`, no step gate) an event is
 * stepped without a step record (`stepEffects`), and the run's `done` is a plain field set with its terminal, not a
 * getter (in unoptimized code, where a short run's turns mostly run, each getter read is a call). With an observer,
 * every step is still recorded and told, in order. The events of work that finished synchronously are taken by index
 * (round 18: a `shift` per event was a builtin call that moved the list).
 */
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { Interpreter } from '../../../src/drivers/interpreter.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { StepRecord } from '../../../src/runtime/query-options.ts';
import { scriptedModelCaller } from '../../../src/replay/scripted-deps.ts';
import { createToolRuntime, defineTool } from '../../../src/tools/index.ts';
import type { ToolRuntime } from '../../../src/data/tool-runtime.ts';
import type { ToolResultEvent } from '../../../src/data/deps.ts';
import { counterIds } from '../../../src/runtime/system-clock.ts';
import { keptInstanceOf } from '../../../src/tools/kept-shapes.ts';
import { COMPAT_REPLIES } from '../replay/log-v3-compat-script.ts';

const config = resolveConfig({ sessionId: 'per-event' });
const echo = defineTool({ name: 'echo', description: '', inputSchema: z.object({ text: z.string() }), isConcurrencySafe: () => true, call: ({ text }) => ({ content: text }) });
const options = (onStep?: (step: StepRecord) => void) => ({
  prompt: 'Echo a few things.',
  config,
  tools: [echo],
  deps: { callModel: scriptedModelCaller(COMPAT_REPLIES), newId: (() => { let n = 0; return () => `id-${++n}`; })(), clock: { now: () => 1_700_000_000_000, sleep: async () => undefined } },
  ...(onStep ? { onStep } : {}),
});

describe("the interpreter's per-event path", () => {
  it('makes no step record when nobody observes the run', async () => {
    const step = vi.spyOn(Interpreter.prototype as unknown as { step: () => unknown }, 'step');
    try {
      const { terminal } = await runLoopToEnd(options());
      expect(terminal).toEqual({ reason: 'completed' });
      expect(step).not.toHaveBeenCalled();
    } finally {
      step.mockRestore();
    }
  });

  it('records and tells every step, in order, when the run is observed', async () => {
    const steps: StepRecord[] = [];
    const { terminal } = await runLoopToEnd(options((record) => void steps.push(record)));
    expect(terminal).toEqual({ reason: 'completed' });
    expect(steps.length).toBeGreaterThan(20);
    expect(steps.map((record) => record.index)).toEqual(steps.map((_, i) => i));
    expect(steps[0].event).toBeNull();
  });

  it('takes the events of synchronous work by index, not by a shift per event (round 18)', async () => {
    const shifted = new Set<unknown>();
    const shift = Array.prototype.shift;
    Array.prototype.shift = function (this: unknown[]) {
      shifted.add(this);
      return shift.call(this);
    };
    let run: { inline: unknown[]; inlineAt: number };
    try {
      const { terminal } = await runLoopToEnd(options());
      expect(terminal).toEqual({ reason: 'completed' });
      run = keptInstanceOf(Interpreter) as unknown as typeof run;
    } finally {
      Array.prototype.shift = shift;
    }
    expect(shifted.has(run.inline)).toBe(false);
    // Drained to the end: the list emptied, the index back at its start.
    expect(run.inline).toEqual([]);
    expect(run.inlineAt).toBe(0);
  });

  it('passes over a hole a host ToolRuntime yields, as the shift-based drain did', async () => {
    const inner = createToolRuntime({ tools: [echo], newId: counterIds('t') });
    const tools: ToolRuntime = {
      definitions: () => inner.definitions(),
      concurrencySafe: (toolUse) => inner.concurrencySafe(toolUse),
      startStreaming: (signal) => inner.startStreaming(signal),
      async *runBatches(batches, signal) {
        yield undefined as unknown as ToolResultEvent;
        yield* inner.runBatches(batches, signal);
      },
    };
    const { terminal, items } = await runLoopToEnd({ ...options(), tools, config: resolveConfig({ sessionId: 'per-event', features: { streamingToolExecution: false } }) });
    expect(terminal).toEqual({ reason: 'completed' });
    expect(items.filter((item) => item.type === 'user').length).toBeGreaterThan(0);
  });

  it("keeps done as a field, set with the run's terminal", async () => {
    await runLoopToEnd(options());
    const run = keptInstanceOf(Interpreter) as { done: boolean; terminal: unknown };
    expect(Object.getOwnPropertyDescriptor(run, 'done')).toMatchObject({ value: true, writable: true });
    expect(run.terminal).toEqual({ reason: 'completed' });
  });
});
