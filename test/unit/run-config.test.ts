/**
 * Config a library user sets without knowing the internals: the context window as one number (no invented model
 * entry), and a model-call cap whose default never ends a run that `maxTurns` allows.
 */
import { describe, expect, it } from 'vitest';
import { runQuery } from '../../src/api/query.ts';
import { DEFAULT_CONFIG, resolveConfig } from '../../src/config/config.ts';
import { modelCallsPerTurn, resolveRunConfig } from '../../src/drivers/resolve-run.ts';
import { contextThresholds } from '../../src/rules/thresholds.ts';
import { scriptedModelCaller, scriptedToolRuntime } from '../../src/replay/scripted-deps.ts';
import { configOverridesSchema } from '../../src/config/config-overrides-schema.ts';
import { messageBuilders } from '../../src/testing/message-builders.ts';

describe('config.contextWindow', () => {
  it('sets the window of any model, listed or not, and the thresholds follow', () => {
    const config = resolveConfig({ contextWindow: 100_000 });
    for (const model of ['claude-sonnet-4-6', 'some-model-turnloop-has-never-heard-of']) {
      const t = contextThresholds(model, config);
      expect(t.contextWindow).toBe(100_000);
      expect(t.effectiveWindow).toBe(100_000 - t.outputReservation);
      expect(t.autocompact).toBe(t.effectiveWindow - DEFAULT_CONFIG.thresholds.autocompactBuffer);
    }
  });

  it('is off by default (the per-model table decides) and scenario files may set it', () => {
    expect(contextThresholds('claude-sonnet-4-6', DEFAULT_CONFIG).contextWindow).toBe(DEFAULT_CONFIG.models['claude-sonnet-4-6'].contextWindow);
    expect(configOverridesSchema.parse({ contextWindow: 50_000 })).toEqual({ contextWindow: 50_000 });
  });
});

describe('the default model-call cap and maxTurns', () => {
  it('grows with maxTurns when the cap is left at its default, and stays as given otherwise', () => {
    const perTurn = modelCallsPerTurn(DEFAULT_CONFIG.limits);
    expect(resolveRunConfig(undefined, 5_000).limits.maxModelCalls).toBe(5_000 * perTurn);
    expect(resolveRunConfig({}, 2).limits.maxModelCalls).toBe(DEFAULT_CONFIG.limits.maxModelCalls);
    expect(resolveRunConfig(undefined, undefined).limits.maxModelCalls).toBe(DEFAULT_CONFIG.limits.maxModelCalls);
    expect(resolveRunConfig({ limits: { maxModelCalls: 7 } }, 5_000).limits.maxModelCalls).toBe(7);
    expect(resolveRunConfig(resolveConfig({}), 5_000).limits.maxModelCalls).toBe(DEFAULT_CONFIG.limits.maxModelCalls);
  });

  it('a tool loop allowed more turns than the default cap runs to max_turns, not to the cap', async () => {
    const turns = DEFAULT_CONFIG.limits.maxModelCalls + 5;
    const m = messageBuilders();
    const replies = Array.from({ length: turns + 1 }, () => m.reply.toolUse('Probe', { n: 1 }));
    const tools = scriptedToolRuntime([{ name: 'Probe', results: Array.from({ length: turns + 1 }, () => ({ content: 'ok' })) }]);
    const { terminal } = await runQuery({ messages: [m.user('go')], maxTurns: turns, tools, deps: { callModel: scriptedModelCaller(replies) } });
    expect(terminal).toEqual({ reason: 'max_turns', turnCount: turns + 1 });
  }, 120_000);
});

describe('resolveConfig and the groups it does not change', () => {
  it('shares them with the defaults by reference, also when a full config comes back as overrides', () => {
    const once = resolveConfig({ sessionId: 's', limits: { maxModelCalls: 9 } });
    const again = resolveConfig(once);
    for (const group of ['models', 'features', 'retry', 'thresholds', 'toolResultBudget', 'microcompact', 'snip', 'promptCaching'] as const) {
      expect(once[group]).toBe(DEFAULT_CONFIG[group]);
      expect(again[group]).toBe(DEFAULT_CONFIG[group]);
    }
    // A changed group is a copy, merged one level deep, and the defaults are left as they were.
    expect(once.limits).not.toBe(DEFAULT_CONFIG.limits);
    expect(once.limits).toEqual({ ...DEFAULT_CONFIG.limits, maxModelCalls: 9 });
    expect(again).toEqual(once);
    expect(DEFAULT_CONFIG.limits.maxModelCalls).toBe(1_000);
  });

  it('still merges a group given as a different object with the same contents', () => {
    const features = { ...DEFAULT_CONFIG.features, microcompact: false };
    const resolved = resolveConfig({ features });
    expect(resolved.features).toEqual(features);
    expect(resolved.features).not.toBe(DEFAULT_CONFIG.features);
    expect(DEFAULT_CONFIG.features.microcompact).toBe(true);
  });
});
