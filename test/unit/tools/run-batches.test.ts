import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { runToolBatches } from '../../../src/tools/run-batches.ts';
import { createToolUseContextRef } from '../../../src/tools/call-deps.ts';
import { partitionToolCalls } from '../../../src/rules/tool-batching.ts';
import { collect, controlledTools, Gates, isErrorResult, resultText, RunLog, depsFor, toolUse } from './fixtures.ts';

const kinds = fc.array(fc.constantFrom('Safe', 'Unsafe', 'Shell', 'SafeBlock'), { minLength: 1, maxLength: 12 });

describe('non-streaming batches (docs/loop.md §7.3)', () => {
  test.prop([kinds, fc.integer({ min: 1, max: 4 }), fc.scheduler()])(
    'whatever the completion order: unsafe calls never overlap, the cap holds, batches stay in order, one result each',
    async (names, cap, s) => {
      const log = new RunLog();
      const deps = depsFor(controlledTools({ log, gate: (id) => s.schedule(Promise.resolve(), id) }));
      const uses = names.map((name, i) => toolUse(`t${i}`, name));
      const batches = partitionToolCalls(uses, deps.registry.concurrencySafeFor(uses));
      const signal = new AbortController().signal;

      const events = await s.waitFor(collect(runToolBatches(batches, deps, { signal, maxConcurrency: cap })));

      expect(log.violations).toEqual([]);
      expect(log.maxRunning).toBeLessThanOrEqual(cap);
      expect(events.map((e) => e.toolUseId).sort()).toEqual(uses.map((u) => u.id).sort());
      expect(events.every((e) => !isErrorResult(e))).toBe(true);
      // Results of batch k all come before those of batch k + 1.
      const batchOf = new Map(batches.flatMap((b, k) => b.toolUses.map((u) => [u.id, k] as const)));
      const order = events.map((e) => batchOf.get(e.toolUseId)!);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    },
  );

  test.prop([fc.scheduler()])('patches of a concurrent batch apply after the batch, in call order', async (s) => {
    const log = new RunLog();
    const seen = new Map<string, Readonly<Record<string, unknown>>>();
    const deps = depsFor(controlledTools({ log, seen, gate: (id) => s.schedule(Promise.resolve(), id) }));
    const uses = [
      toolUse('a', 'Safe', { patch: { who: 'a', a: 1 } }),
      toolUse('b', 'Safe', { patch: { who: 'b', b: 1 } }),
      toolUse('c', 'Safe', {}),
      toolUse('d', 'Unsafe', { patch: { who: 'd' } }),
      toolUse('e', 'Unsafe', {}),
    ];
    const context = createToolUseContextRef({ start: true });
    const batches = partitionToolCalls(uses, deps.registry.concurrencySafeFor(uses));
    await s.waitFor(collect(runToolBatches(batches, deps, { signal: new AbortController().signal, context })));

    // Within the batch nobody sees a sibling's patch, whatever finished first.
    for (const id of ['a', 'b', 'c']) expect(seen.get(id)).toEqual({ start: true });
    expect(seen.get('d')).toEqual({ start: true, who: 'b', a: 1, b: 1 });
    // A serial call's patch applies at once.
    expect(seen.get('e')).toEqual({ start: true, who: 'd', a: 1, b: 1 });
    expect(context.current).toEqual({ start: true, who: 'd', a: 1, b: 1 });
  });

  it('yields results of a concurrent batch in completion order', async () => {
    const gates = new Gates();
    const deps = depsFor(controlledTools({ log: new RunLog(), gate: gates.wait }));
    const uses = [toolUse('a', 'Safe'), toolUse('b', 'Safe')];
    const pending = collect(runToolBatches([{ concurrent: true, toolUses: uses }], deps, { signal: new AbortController().signal }));
    gates.open('b');
    await new Promise((r) => setImmediate(r));
    gates.open('a');
    expect((await pending).map((e) => e.toolUseId)).toEqual(['b', 'a']);
  });

  it('an error cancels no sibling, not even a Bash or shell-like one (the original runTools has no sibling cancellation)', async () => {
    for (const shell of ['Bash', 'SafeShell']) {
      const gates = new Gates();
      const log = new RunLog();
      const deps = depsFor(controlledTools({ log, gate: gates.wait }));
      const uses = [toolUse('s1', shell, { fail: true }), toolUse('s2', 'Safe'), toolUse('u3', 'Unsafe')];
      const batches = partitionToolCalls(uses, deps.registry.concurrencySafeFor(uses));
      const pending = collect(runToolBatches(batches, deps, { signal: new AbortController().signal }));
      gates.open('s1', 's2', 'u3');
      const events = await pending;
      expect(events.map(resultText)).toEqual([`${shell} s1 failed`, 'Safe s2 ok', 'Unsafe u3 ok']);
      expect(log.started).toEqual(['s1', 's2', 'u3']);
    }
  });

  it("another tool's error does not cancel anything", async () => {
    const gates = new Gates();
    const deps = depsFor(controlledTools({ log: new RunLog(), gate: gates.wait }));
    const uses = [toolUse('a', 'Safe', { fail: true }), toolUse('b', 'Safe')];
    const pending = collect(runToolBatches([{ concurrent: true, toolUses: uses }], deps, { signal: new AbortController().signal }));
    gates.open('a', 'b');
    expect((await pending).map(resultText)).toEqual(['Safe a failed', 'Safe b ok']);
  });

  it('an interrupt cancels cancel-tools only; another abort reason cancels all', async () => {
    for (const [reason, expected] of [
      ['interrupt', ['cancelled', 'SafeBlock b ok']],
      ['shutdown', ['cancelled', 'cancelled']],
    ] as const) {
      const gates = new Gates();
      const controller = new AbortController();
      const deps = depsFor(controlledTools({ log: new RunLog(), gate: gates.wait }));
      const uses = [toolUse('a', 'Safe'), toolUse('b', 'SafeBlock')];
      const pending = collect(runToolBatches([{ concurrent: true, toolUses: uses }], deps, { signal: controller.signal }));
      await new Promise((r) => setImmediate(r));
      controller.abort(reason);
      gates.open('b');
      const byId = Object.fromEntries((await pending).map((e) => [e.toolUseId, resultText(e)]));
      expect([byId.a, byId.b].map((t) => (/cancelled/i.test(t) ? 'cancelled' : t))).toEqual(expected);
    }
  });
});
