/**
 * Work that finishes synchronously (the default context layers, a synchronous attachment collector, no stop hooks)
 * is fed to the reducer at once instead of through the event channel. These tests hold it to the same run as the
 * asynchronous path: the same events in the same order, the same history, and the same failure handling.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { createContextLayerRunner } from '../../../src/context/default-context-layers.ts';
import { createMemoryToolResultStore } from '../../../src/context/result-store.ts';
import type { ContextLayerRunner } from '../../../src/data/deps.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import type { StepObserver } from '../../../src/runtime/query-options.ts';
import type { LoopEvent } from '../../../src/data/events.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../../src/replay/scripted-deps.ts';
import { toolTurns } from '../replay/fixtures.ts';

const config = resolveConfig({ sessionId: 'inline-settle' });

async function run(options: { runContextLayer: ContextLayerRunner; collectAttachments: () => unknown; stopHooks?: boolean }) {
  const script = toolTurns(3);
  const events: LoopEvent[] = [];
  const onStep: StepObserver = ({ event }) => void (event && events.push(event));
  let ids = 0;
  const result = await runLoopToEnd({
    prompt: 'Read the files.',
    config,
    tools: scriptedToolRuntime(script.tools),
    ...(options.stopHooks ? { stopHooks: [async () => ({})] } : {}),
    deps: {
      callModel: scriptedModelCaller(script.model),
      runContextLayer: options.runContextLayer,
      collectAttachments: options.collectAttachments as never,
      newId: () => `id-${++ids}`,
      clock: { now: () => 1_700_000_000_000, sleep: async () => undefined },
    },
    onStep,
  });
  return { ...result, events };
}

describe('synchronous work is fed inline', () => {
  it('gives the same events, order and items as the same work answering through promises', async () => {
    const sync = createContextLayerRunner({ config, store: createMemoryToolResultStore() });
    const viaPromise = createContextLayerRunner({ config, store: createMemoryToolResultStore() });
    const inline = await run({ runContextLayer: sync, collectAttachments: () => [] });
    const queued = await run({ runContextLayer: async (input) => viaPromise(input), collectAttachments: async () => [], stopHooks: true });
    expect(inline.terminal).toEqual({ reason: 'completed' });
    // The queued run has one stop hook (to take the asynchronous path): its result counts it, and a summary of the
    // hooks that ran is shown (docs/loop.md §4.9.4); apart from that the two runs are the same.
    const withoutHookCount = (events: LoopEvent[]) => events.map((e) => (e.type === 'stop_hooks_result' ? { ...e, hookCount: 0 } : e));
    expect(withoutHookCount(inline.events)).toEqual(withoutHookCount(queued.events));
    const withoutSummary = (items: typeof inline.items) => items.filter((i) => !(i.type === 'system' && i.subtype === 'stop_hook_summary'));
    expect(inline.items).toEqual(withoutSummary(queued.items));
    expect(queued.items.filter((i) => i.type === 'system' && i.subtype === 'stop_hook_summary')).toHaveLength(1);
    expect(inline.events.filter((e) => e.type === 'context_layer_result').length).toBeGreaterThan(4);
  });

  it('handles a synchronous throw like a rejected promise: a warning, the empty result, and the run goes on', async () => {
    const failing: ContextLayerRunner = (input) => {
      if (input.layer === 'microcompact') throw new Error('layer broke');
      return { edits: [], tokensFreed: 0 };
    };
    const result = await run({ runContextLayer: failing, collectAttachments: () => [] });
    expect(result.terminal).toEqual({ reason: 'completed' });
    const warnings = result.items.filter((item) => item.type === 'system' && item.subtype === 'warning');
    expect(warnings.map((w) => (w as { content: string }).content)).toContain('internal error: layer broke');
    expect(result.events).toContainEqual({ type: 'context_layer_result', layer: 'microcompact', edits: [], tokensFreed: 0 });
  });
});
