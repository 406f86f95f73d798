/**
 * SPEC §6 / §9.3 through the interpreter: an autocompactor that always fails is tried exactly three times in a
 * run that stays over the autocompact threshold, then never again.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import type { Compactor, ModelCaller } from '../../../src/effects/deps.ts';
import { runQuery } from '../../../src/effects/query.ts';
import { counterIds, virtualClock } from '../../../src/effects/system-clock.ts';
import { contextThresholds } from '../../../src/reducer/thresholds.ts';

describe('autocompact circuit breaker', () => {
  it('calls a failing compactor exactly 3 times across a 10-turn run over the threshold', async () => {
    const config = resolveConfig({ sessionId: 'breaker', features: { reactiveCompact: false } });
    const overThreshold = contextThresholds(config.model, config).autocompact + 1_000;
    let calls = 0;
    const callModel: ModelCaller = async function* (request, options) {
      calls += 1;
      const done = calls === 10;
      yield {
        kind: 'event',
        event: {
          type: 'model_message',
          message: {
            type: 'assistant',
            uuid: options.newId(),
            message: {
              id: `msg_${calls}`,
              role: 'assistant',
              model: request.model,
              content: [done ? { type: 'text', text: 'done' } : { type: 'text', text: `turn ${calls}` }],
              stop_reason: 'end_turn',
            },
          },
        },
      };
      yield { kind: 'event', event: { type: 'model_done', usage: { input_tokens: overThreshold, output_tokens: 10 } } };
    };
    let compactorCalls = 0;
    const failing: Compactor = async () => {
      compactorCalls += 1;
      return { ok: false, error: 'summariser unavailable' };
    };
    // A stop hook keeps the run going for 10 model calls, each reporting a context over the threshold.
    const { terminal } = await runQuery({
      prompt: 'work',
      config,
      stopHooks: [() => (calls < 10 ? { blockingError: 'keep going' } : {})],
      deps: { callModel, autocompact: failing, clock: virtualClock(), newId: counterIds('cb') },
    });
    expect(terminal.reason).toBe('completed');
    expect(calls).toBe(10);
    expect(compactorCalls).toBe(config.limits.autocompactMaxFailures);
  });
});
