import { fc, test } from '@fast-check/vitest';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool.ts';
import type { ToolResultEvent } from '../../../src/data/deps.ts';
import { DuplicateToolUseError, StreamingToolExecutor } from '../../../src/tools/streaming-executor.ts';
import { collect, controlledTools, flush, Gates, isErrorResult, resultText, RunLog, depsFor, toolUse } from './fixtures.ts';

function setup(options: { maxConcurrency?: number; onResultReady?: () => void } = {}) {
  const gates = new Gates();
  const log = new RunLog();
  const seen = new Map<string, Readonly<Record<string, unknown>>>();
  const deps = depsFor(controlledTools({ log, seen, gate: gates.wait }));
  const controller = new AbortController();
  const executor = new StreamingToolExecutor({ deps, signal: controller.signal, ...options });
  const add = (id: string, name: string, input: unknown = {}) => {
    const use = toolUse(id, name, input);
    executor.enqueue(use, deps.registry.concurrencySafeFor([use])[id]);
  };
  const ids = (events: ToolResultEvent[]) => events.map((e) => e.toolUseId);
  return { gates, log, seen, executor, controller, add, ids };
}

describe('streaming executor: start rules (docs/loop.md §7.4)', () => {
  it('starts safe tools together, holds an unsafe one until nothing runs, and nothing overtakes it', async () => {
    const { gates, log, add } = setup();
    add('s1', 'Safe');
    add('s2', 'Safe');
    add('u3', 'Unsafe');
    add('s4', 'Safe');
    await flush();
    expect(log.started).toEqual(['s1', 's2']);
    gates.open('s1');
    await flush();
    expect(log.started).toEqual(['s1', 's2']);
    gates.open('s2');
    await flush();
    expect(log.started).toEqual(['s1', 's2', 'u3']);
    gates.open('u3');
    await flush();
    expect(log.started).toEqual(['s1', 's2', 'u3', 's4']);
    expect(log.violations).toEqual([]);
  });

  it('respects the concurrency cap', async () => {
    const { gates, log, add } = setup({ maxConcurrency: 2 });
    for (const id of ['a', 'b', 'c']) add(id, 'Safe');
    await flush();
    expect(log.started).toEqual(['a', 'b']);
    gates.open('b');
    await flush();
    expect(log.started).toEqual(['a', 'b', 'c']);
  });
});

describe('streaming executor: emission order', () => {
  it('reports in call order, passing over running safe tools only', async () => {
    const { gates, executor, add, ids } = setup();
    add('u1', 'Unsafe');
    for (const id of ['s2', 's3', 's4']) add(id, 'Safe');
    add('u5', 'Unsafe');
    expect(executor.takeCompleted()).toEqual([]);
    gates.open('u1');
    await flush();
    gates.open('s2', 's4');
    await flush();
    expect(ids(executor.takeCompleted())).toEqual(['u1', 's2', 's4']);
    expect(executor.takeCompleted()).toEqual([]);
    gates.open('s3', 'u5');
    expect(ids(await collect(executor.finish()))).toEqual(['s3', 'u5']);
  });

  it('does not pass over a running unsafe tool, even when a later one is already answered', async () => {
    const { gates, executor, controller, add, ids } = setup();
    add('u1', 'Unsafe');
    add('s2', 'Safe');
    controller.abort('interrupt'); // answers the queued cancel-tool s2 at once; u1 blocks and runs on
    await flush();
    expect(executor.takeCompleted()).toEqual([]);
    gates.open('u1');
    expect(ids(await collect(executor.finish()))).toEqual(['u1', 's2']);
  });

  it('tells the host when a result is ready', async () => {
    const onResultReady = vi.fn();
    const { gates, executor, add, ids } = setup({ onResultReady });
    add('a', 'Safe');
    gates.open('a');
    await flush();
    expect(onResultReady).toHaveBeenCalled();
    expect(ids(executor.takeCompleted())).toEqual(['a']);
  });

  it('answers an unknown tool in order and rejects a duplicate id', async () => {
    const { executor, add, ids } = setup();
    add('x', 'Nope');
    expect(() => add('x', 'Nope')).toThrow(DuplicateToolUseError);
    const events = await collect(executor.finish());
    expect(ids(events)).toEqual(['x']);
    expect(isErrorResult(events[0])).toBe(true);
  });

  test.prop([fc.array(fc.constantFrom('Safe', 'Unsafe', 'SafeBlock'), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 3 }), fc.scheduler()])(
    'whatever the timing: no overlap with unsafe tools, cap held, start in call order, one result each, only safe tools passed over',
    async (names, cap, s) => {
      const log = new RunLog();
      const deps = depsFor(controlledTools({ log, gate: (id) => s.schedule(Promise.resolve(), id) }));
      const executor = new StreamingToolExecutor({ deps, signal: new AbortController().signal, maxConcurrency: cap });
      const uses = names.map((name, i) => toolUse(`t${i}`, name));
      const reported: ToolResultEvent[] = [];
      const streaming = s.scheduleSequence(
        uses.map((use) => ({
          label: `enqueue ${use.id}`,
          builder: async () => {
            executor.enqueue(use, deps.registry.concurrencySafeFor([use])[use.id]);
            reported.push(...executor.takeCompleted());
          },
        })),
      );
      await s.waitFor(streaming.task);
      reported.push(...(await s.waitFor(collect(executor.finish()))));

      expect(log.violations).toEqual([]);
      expect(log.maxRunning).toBeLessThanOrEqual(cap);
      expect(log.started).toEqual(uses.map((u) => u.id));
      const order = reported.map((e) => Number(e.toolUseId.slice(1)));
      expect([...order].sort((a, b) => a - b)).toEqual(uses.map((_, i) => i));
      order.forEach((later, pos) => {
        for (const earlier of order.slice(pos + 1)) if (earlier < later) expect(names[earlier]).not.toBe('Unsafe');
      });
    },
  );
});

/** `finishInto` drained the way the interpreter drains it: each put taken a few microtasks later (round 13). */
async function collectInto(executor: StreamingToolExecutor): Promise<ToolResultEvent[]> {
  const out: ToolResultEvent[] = [];
  await executor.finishInto({
    put: async (event) => {
      out.push(event);
      for (let i = 0; i < 3; i++) await Promise.resolve();
    },
  });
  return out;
}

const FINISHES = { 'finish()': (executor: StreamingToolExecutor) => collect(executor.finish()), 'finishInto()': collectInto };

for (const [finishName, finishAll] of Object.entries(FINISHES)) describe(`streaming executor: ${finishName} never misses a result`, () => {
  const hops = async (n: number) => {
    for (let i = 0; i < n; i++) await Promise.resolve();
  };
  /** A concurrency-safe tool that ends `input.after` microtasks after it starts. */
  const quick = defineTool({
    name: 'Quick',
    description: '',
    inputSchema: z.object({ after: z.number() }),
    isConcurrencySafe: () => true,
    call: async ({ after }) => {
      await hops(after);
      return { content: `after ${after}` };
    },
  });
  const timeout = () => new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), 200));
  const finishOf = async (executor: StreamingToolExecutor) => {
    const results = await Promise.race([finishAll(executor), timeout()]);
    return results === 'timed out' ? results : results.map(resultText);
  };

  // Stepping the timing one microtask at a time makes a tool end at every point of finish(), including between a
  // look for results and the wait that follows it, where a finished tool once went unseen and finish() hung.
  it(`reports a tool that ends at any microtask of ${finishName} starting`, async () => {
    for (let delay = 0; delay <= 30; delay++) {
      const executor = new StreamingToolExecutor({ deps: depsFor([quick]), signal: new AbortController().signal });
      executor.enqueue(toolUse('q1', 'Quick', { after: 0 }), true);
      await hops(delay);
      expect(await finishOf(executor), `${finishName} called ${delay} microtasks later`).toEqual(['after 0']);
    }
  });

  it('reports a tool that ends at any microtask of an earlier result being yielded', async () => {
    for (let after = 0; after <= 30; after++) {
      const executor = new StreamingToolExecutor({ deps: depsFor([quick]), signal: new AbortController().signal });
      executor.enqueue(toolUse('q1', 'Quick', { after: 0 }), true);
      executor.enqueue(toolUse('q2', 'Quick', { after }), true);
      expect(await finishOf(executor), `second tool ending ${after} microtasks after the first`).toEqual(['after 0', `after ${after}`]);
    }
  });
});

describe('streaming executor: cancellation (docs/loop.md §7.5)', () => {
  it("a shell-like error cancels running, queued and later siblings, each with one result saying so", async () => {
    const { gates, log, executor, add } = setup();
    add('a', 'SafeShell', { fail: true });
    add('b', 'Safe');
    add('c', 'Unsafe');
    gates.open('a');
    await flush();
    add('d', 'Safe');
    const events = await collect(executor.finish());
    expect(events.map((e) => e.toolUseId)).toEqual(['a', 'b', 'c', 'd']);
    expect(resultText(events[0])).toBe('SafeShell a failed');
    for (const e of events.slice(1)) {
      expect(isErrorResult(e)).toBe(true);
      expect(resultText(e)).toContain('sibling tool call (SafeShell, a) failed');
    }
    expect(log.started).toEqual(['a', 'b']);
  });

  it('an error of a non-shell tool cancels nothing', async () => {
    const { gates, executor, add } = setup();
    add('a', 'Safe', { fail: true });
    add('b', 'Safe');
    gates.open('a', 'b');
    expect((await collect(executor.finish())).map(resultText)).toEqual(['Safe a failed', 'Safe b ok']);
  });

  it('by default only a Bash error cancels the siblings not yet run (StreamingToolExecutor.ts:354-363)', async () => {
    const { gates, log, executor, add } = setup();
    add('a', 'Bash', { fail: true });
    add('b', 'Unsafe');
    gates.open('a');
    const events = await collect(executor.finish());
    expect(events.map(resultText)).toEqual(['Bash a failed', expect.stringContaining('sibling tool call (Bash, a) failed')]);
    expect(log.started).toEqual(['a']);
  });

  it('by default a PowerShell error, like any tool but Bash, cancels nothing (StreamingToolExecutor.ts:354-363)', async () => {
    const { gates, executor, add } = setup();
    add('a', 'PowerShell', { fail: true });
    add('b', 'Unsafe');
    gates.open('a', 'b');
    expect((await collect(executor.finish())).map(resultText)).toEqual(['PowerShell a failed', 'Unsafe b ok']);
  });

  it("a user interrupt cancels only 'cancel' tools; 'block' tools, queued ones included, finish", async () => {
    const { gates, log, executor, controller, add } = setup();
    add('a', 'Safe');
    add('b', 'SafeBlock');
    add('c', 'Unsafe');
    add('d', 'Safe');
    controller.abort('interrupt');
    await flush();
    gates.open('b', 'c');
    const texts = Object.fromEntries((await collect(executor.finish())).map((e) => [e.toolUseId, resultText(e)]));
    expect(texts.a).toMatch(/interrupted/);
    expect(texts.b).toBe('SafeBlock b ok');
    expect(texts.c).toBe('Unsafe c ok');
    expect(texts.d).toMatch(/interrupted/);
    expect(log.started).toEqual(['a', 'b', 'c']);
  });

  it('any other abort reason cancels every tool, running or queued', async () => {
    const { log, executor, controller, add } = setup();
    add('a', 'Safe');
    add('b', 'SafeBlock');
    add('c', 'Unsafe');
    controller.abort(new Error('shutting down'));
    const events = await collect(executor.finish());
    // The queued tool is answered at once; the running safe ones may be passed over meanwhile.
    expect(events.map((e) => e.toolUseId).sort()).toEqual(['a', 'b', 'c']);
    expect(events.every(isErrorResult)).toBe(true);
    expect(log.started).toEqual(['a', 'b']);
  });

  it('discard aborts everything, reports nothing more, and hands back one synthetic result per open tool_use', async () => {
    const { gates, seen, log, executor, add } = setup();
    add('a', 'Safe');
    add('b', 'Unsafe');
    const synthetic = executor.discard('streaming fallback');
    expect(synthetic.map((e) => e.toolUseId)).toEqual(['a', 'b']);
    expect(resultText(synthetic[0])).toBe('Discarded before it finished: streaming fallback');
    add('c', 'Safe');
    gates.open('a');
    expect(await collect(executor.finish())).toEqual([]);
    expect(executor.takeCompleted()).toEqual([]);
    expect(executor.discard('again')).toEqual([]);
    await flush(); // the discarded call of a runs on, detached, and reaches its body only some microtasks later
    expect(log.started).toEqual(['a']);
    expect(seen.has('c')).toBe(false);
  });
});

describe('streaming executor: context patches', () => {
  it('applies safe patches in call order once no safe tool runs, unsafe ones at once', async () => {
    const { gates, seen, executor, add } = setup();
    add('a', 'Safe', { patch: { who: 'a' } });
    add('b', 'Safe', { patch: { who: 'b' } });
    add('c', 'Unsafe', { patch: { who: 'c' } });
    add('d', 'Unsafe');
    gates.open('b');
    await flush();
    expect(executor.context.current).toEqual({});
    gates.open('a');
    await flush();
    expect(seen.get('c')).toEqual({ who: 'b' });
    gates.open('c', 'd');
    await collect(executor.finish());
    expect(seen.get('d')).toEqual({ who: 'c' });
  });
});

describe('streaming executor: finishInto() gives what finish() gives (round 13)', () => {
  it('the same results in the same order with a shell-like error cancelling its siblings, and nothing after discard', async () => {
    const run = async (finishAll: (executor: StreamingToolExecutor) => Promise<ToolResultEvent[]>) => {
      const { gates, executor, add } = setup();
      add('a', 'SafeShell', { fail: true });
      add('b', 'Safe');
      add('c', 'Unsafe');
      add('d', 'Safe');
      const finished = finishAll(executor);
      await flush();
      gates.open('a');
      return (await finished).map((event) => [event.toolUseId, resultText(event), isErrorResult(event)]);
    };
    const viaGenerator = await run((executor) => collect(executor.finish()));
    expect(viaGenerator.length).toBe(4);
    expect(await run(collectInto)).toEqual(viaGenerator);

    const { executor, add } = setup();
    add('s1', 'Safe');
    executor.discard('fallback');
    expect(await collectInto(executor)).toEqual([]);
  });
});
