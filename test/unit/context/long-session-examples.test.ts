/**
 * The long-session examples (examples/scenarios/long-session-*.json) with the REAL forked compactor against the
 * strict fake API, checked beyond their `expect`: the thresholds of docs/loop.md §6 on a 40k-window model, the window
 * never exceeded, the circuit breaker (docs/loop.md §9.3) ending a spiral of compactions whose own request is too long.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/config.ts';
import { estimateInputTokens } from '../../../src/fake-api/index.ts';
import type { SystemMessage } from '../../../src/messages/types.ts';
import { contextThresholds } from '../../../src/rules/thresholds.ts';
import { outcomeMismatches } from '../../../src/scenario/check-outcome.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario, type SimulationResult } from '../../../src/scenario/simulate.ts';
import { REPO_ROOT } from '../cli/capture-io.ts';

const WINDOW = 40_000;
const load = (file: string) => loadScenario(join(REPO_ROOT, 'examples/scenarios', file), REPO_ROOT);

describe('150 tool turns of ~2,000 tokens on a 40k-window model, compacted by the real forked compactor', () => {
  const scenario = load('long-session-autocompact.json');
  const config = resolveConfig(scenario.config);
  const thresholds = contextThresholds(config.model, config);
  let result: SimulationResult;
  beforeAll(async () => {
    result = await simulateScenario(scenario);
  }, 120_000);

  it('uses the docs/loop.md §6 thresholds of that window: autocompact at 22,904, blocking at 32,904', () => {
    expect(thresholds).toMatchObject({ contextWindow: WINDOW, effectiveWindow: 35_904, autocompact: 22_904, blocking: 32_904 });
    expect(scenario.compaction).toBeUndefined();
    expect(scenario.compactionModel).toBeUndefined();
  });

  it('completes every turn and reaches its expect', () => {
    expect(outcomeMismatches(scenario.expect!, result)).toEqual([]);
    expect(result.terminal.reason).toBe('completed');
    expect(result.toolCalls).toHaveLength(150);
  });

  it('autocompacts at least 5 times, each as soon as the count passed the threshold, and never fails', () => {
    const boundaries = result.emitted.filter((m): m is SystemMessage => m.type === 'system' && m.subtype === 'compact_boundary');
    expect(boundaries.length).toBeGreaterThanOrEqual(5);
    expect(result.compactions.auto.attempted).toBe(result.compactions.auto.succeeded);
    for (const boundary of boundaries) {
      const pre = boundary.data?.preCompactTokens as number;
      expect(boundary.data?.trigger).toBe('auto');
      expect(pre).toBeGreaterThanOrEqual(thresholds.autocompact);
      // One tool turn (a ~2,000-token result and the reply) past the threshold at most.
      expect(pre).toBeLessThan(thresholds.autocompact + 3_000);
    }
  });

  it('never sends a request over the window (the strict fake refused none)', () => {
    expect(result.rejections).toEqual([]);
    const sizes = result.requests.map((body) => estimateInputTokens(body));
    expect(sizes).toHaveLength(151 + result.compactions.auto.attempted);
    expect(Math.max(...sizes)).toBeLessThan(thresholds.blocking);
  });
});

describe("the compactor's own request is too long: the circuit breaker ends the spiral", () => {
  const scenario = load('long-session-compactor-too-long.json');
  let result: SimulationResult;
  beforeAll(async () => {
    result = await simulateScenario(scenario);
  }, 120_000);

  it('reaches its expect: three failed autocompacts before calls 6, 7 and 8, then none, and the run completes', () => {
    expect(outcomeMismatches(scenario.expect!, result)).toEqual([]);
    expect(result.terminal.reason).toBe('completed');
  });

  it("refuses each compaction request with the real 400 'prompt is too long', and no main request", () => {
    expect(result.rejections).toHaveLength(3);
    for (const rejection of result.rejections) {
      expect(rejection.queue).toBe('compactionModel');
      const match = /^prompt is too long: (\d+) tokens > 40000 maximum$/.exec(rejection.message);
      expect(match).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThan(WINDOW);
    }
  });

  it('stops sending compaction requests once the breaker is open', () => {
    const config = resolveConfig(scenario.config);
    expect(result.compactions.auto.attempted).toBe(config.limits.autocompactMaxFailures);
    expect(result.compactions.auto.succeeded).toBe(0);
    expect(result.modelCalls).toBeGreaterThan(Math.max(...result.compactions.auto.beforeModelCalls) + 1);
  });
});
