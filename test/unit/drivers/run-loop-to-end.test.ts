/**
 * `runLoopToEnd` drives the run without the async generator `runLoop` hands out (`driveRunToEnd`): the items, the
 * terminal and every step (the recorded log) are the ones of `runLoop` drained item by item, with concurrency-safe
 * tools (streamed as the reply arrives), a failing tool, and a run the caller aborts.
 */
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { Interpreter } from '../../../src/drivers/interpreter.ts';
import { resolveConfig } from '../../../src/config/config.ts';
import { collectToEnd, runLoop, runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { RunLoopOptions, StepRecord } from '../../../src/runtime/query-options.ts';
import { scriptedModelCaller } from '../../../src/replay/scripted-deps.ts';
import { defineTool } from '../../../src/tools/index.ts';
import { COMPAT_REPLIES } from '../replay/log-v3-compat-script.ts';

const config = resolveConfig({ sessionId: 'to-end' });

function options(failOn: string | null, signal?: AbortSignal): { options: RunLoopOptions; steps: StepRecord[] } {
  const steps: StepRecord[] = [];
  const echo = defineTool({
    name: 'echo',
    description: 'Answers its text unchanged.',
    inputSchema: z.object({ text: z.string() }),
    isConcurrencySafe: () => true,
    call: (input) => {
      if (input.text === failOn) throw new Error(`echo refused ${input.text}`);
      return { content: input.text };
    },
  });
  let ids = 0;
  return {
    steps,
    options: {
      prompt: 'Echo a few things.',
      config,
      tools: [echo],
      deps: { callModel: scriptedModelCaller(COMPAT_REPLIES), newId: () => `id-${++ids}`, clock: { now: () => 1_700_000_000_000, sleep: async () => undefined } },
      onStep: (step) => void steps.push(step),
      ...(signal ? { signal } : {}),
    },
  };
}

const events = (steps: StepRecord[]) => steps.map((step) => step.event);

describe('runLoopToEnd', () => {
  for (const failOn of [null, 'ping 3']) {
    it(`gives what runLoop() drained gives${failOn ? ', with a failing tool' : ''}`, async () => {
      const viaGenerator = options(failOn);
      const direct = options(failOn);
      const expected = await collectToEnd(runLoop(viaGenerator.options));
      const actual = await runLoopToEnd(direct.options);
      expect(actual.terminal).toEqual({ reason: 'completed' });
      expect(actual).toEqual(expected);
      expect(events(direct.steps)).toEqual(events(viaGenerator.steps));
      expect(direct.steps.length).toBeGreaterThan(20);
    });
  }

  it('takes the queued work in one loop, not one advance() call per entry (round 12: two promises less each)', async () => {
    const advance = vi.spyOn(Interpreter.prototype, 'advance');
    try {
      const { terminal } = await runLoopToEnd(options(null).options);
      expect(terminal).toEqual({ reason: 'completed' });
      expect(advance).not.toHaveBeenCalled();
      await collectToEnd(runLoop(options(null).options));
      expect(advance).toHaveBeenCalled();
    } finally {
      advance.mockRestore();
    }
  });

  it('ends an aborted run as runLoop() does', async () => {
    const run = async (drive: (o: RunLoopOptions) => Promise<unknown>) => {
      const controller = new AbortController();
      const { options: o, steps } = options(null, controller.signal);
      const result = drive({ ...o, onStep: (step) => { steps.push(step); if (steps.length === 12) controller.abort('stop here'); } });
      return { result: await result, steps };
    };
    const expected = await run((o) => collectToEnd(runLoop(o)));
    const actual = await run(runLoopToEnd);
    expect((actual.result as { terminal: unknown }).terminal).toEqual({ reason: 'aborted_streaming' });
    expect(actual.result).toEqual(expected.result);
    expect(events(actual.steps)).toEqual(events(expected.steps));
  });
});
