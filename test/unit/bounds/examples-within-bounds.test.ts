/**
 * Every example scenario, simulated, stays within the bounds computed from its config and params alone: model
 * calls, requests, and the output tokens every request may ask for.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeBounds } from '../../../src/bounds/compute-bounds.ts';
import { maxOutputPerCall } from '../../../src/rules/call-cost.ts';
import { boundsInputOfScenario } from '../../../src/bounds/scenario-bounds.ts';
import { loadScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { REPO_ROOT } from '../cli/capture-io.ts';

const DIR = join(REPO_ROOT, 'examples/scenarios');
const files = readdirSync(DIR).filter((file) => file.endsWith('.json')).sort();

describe('example scenarios stay within their computed bounds', () => {
  it.each(files)('%s', async (file) => {
    const scenario = loadScenario(join(DIR, file), REPO_ROOT);
    const { config, params, options } = boundsInputOfScenario(scenario);
    const bounds = computeBounds(config, params, options);
    const result = await simulateScenario(scenario);
    expect(result.modelCalls).toBeLessThanOrEqual(bounds.mainModelCalls);
    expect(result.requests.length).toBeLessThanOrEqual(bounds.mainModelCalls + bounds.compactionCalls);
    const agentCalls = result.agentRuns.reduce((n, run) => n + run.modelCalls, 0);
    expect(agentCalls).toBeLessThanOrEqual(bounds.subagentCalls);
    const asked = result.requests.map((r) => (r as { max_tokens: number }).max_tokens);
    for (const maxTokens of asked) expect(maxTokens).toBeLessThanOrEqual(Math.max(maxOutputPerCall(config, params), config.defaultModelInfo.maxOutputTokensUpperLimit));
    expect(asked.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(bounds.outputTokens);
  });
});
