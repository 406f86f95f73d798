/**
 * docs/loop.md §6 / §9.3 through the interpreter: an autocompactor that always fails is tried exactly three times in a
 * run that stays over the autocompact threshold, then never again.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { Compactor } from '../../../src/data/deps.ts';
import { scriptedModelCaller } from '../../../src/replay/scripted-deps.ts';
import { runLoopToEnd } from '../../../src/drivers/run-loop.ts';
import { counterIds, virtualClock } from '../../../src/runtime/system-clock.ts';
import { contextThresholds } from '../../../src/rules/thresholds.ts';

describe('autocompact circuit breaker', () => {
  it('calls a failing compactor exactly 3 times across a 10-turn run over the threshold', async () => {
    const config = resolveConfig({ sessionId: 'breaker', features: { reactiveCompact: false } });
    const overThreshold = contextThresholds(config.model, config).autocompact + 1_000;
    // Ten replies, each reporting a context over the autocompact threshold.
    const callModel = scriptedModelCaller(
      Array.from({ length: 10 }, (_, i) => ({
        content: [{ type: 'text' as const, text: i === 9 ? 'done' : `turn ${i + 1}` }],
        usage: { input_tokens: overThreshold, output_tokens: 10 },
      })),
    );
    let compactorCalls = 0;
    const failing: Compactor = async () => {
      compactorCalls += 1;
      return { ok: false, error: 'summariser unavailable' };
    };
    // A stop hook keeps the run going for 10 model calls, each reporting a context over the threshold.
    const { terminal } = await runLoopToEnd({
      prompt: 'work',
      config,
      stopHooks: [() => (callModel.calls < 10 ? { blockingError: 'keep going' } : {})],
      deps: { callModel, autocompact: failing, clock: virtualClock(), newId: counterIds('cb') },
    });
    expect(terminal.reason).toBe('completed');
    expect(callModel.calls).toBe(10);
    expect(compactorCalls).toBe(config.limits.autocompactMaxFailures);
  });
});
