/**
 * Extension `maxBudgetUsd`: `limits.maxCostUsd` ends the run before a model call that could take the main loop's
 * spend past the cap (spend so far + the worst call), every tool_use answered. Off by default (the original).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicApi } from '../../../src/fake-api/index.ts';
import { runCli } from '../cli/capture-io.ts';
import { computeBounds } from '../../../src/bounds/compute-bounds.ts';
import { unpairedToolUses } from '../../../src/bounds/pairing.ts';
import { DEFAULT_CONFIG, resolveConfig } from '../../../src/config/config.ts';
import { priceOf, costOfUsage } from '../../../src/config/prices.ts';
import type { Message } from '../../../src/messages/types.ts';
import { worstCallCostUsd } from '../../../src/rules/call-cost.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';

const USAGE = { input_tokens: 1000, output_tokens: 1000 };
const toolTurn = { content: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*' } }], usage: USAGE };

function scenarioWithCap(maxCostUsd: number, turns: number) {
  return parseScenario(
    {
      config: { limits: { maxCostUsd } },
      params: { prompt: 'List the files.' },
      tools: [{ name: 'Glob', concurrencySafe: true, results: [{ content: 'README.md', repeat: turns }] }],
      model: [...Array.from({ length: turns }, () => toolTurn), { content: [{ type: 'text', text: 'Done.' }], usage: USAGE }],
    },
    'spend-cap.json',
  );
}

describe('spend cap (limits.maxCostUsd)', () => {
  it('is off by default, as in the original loop', () => {
    expect(DEFAULT_CONFIG.limits.maxCostUsd).toBe(0);
  });

  it('ends the run max_budget_usd before a call that could pass the cap, every tool_use answered', async () => {
    const worst = worstCallCostUsd(DEFAULT_CONFIG, {});
    const perCall = costOfUsage(USAGE, priceOf(DEFAULT_CONFIG.model)!);
    const cap = worst + 2.5 * perCall;
    // Call k is made while (k − 1) · perCall + worst ≤ cap: three calls, then the stop.
    const result = await simulateScenario(scenarioWithCap(cap, 6));
    expect(result.terminal.reason).toBe('max_budget_usd');
    expect(result.modelCalls).toBe(3);
    const terminal = result.terminal as { costUsd: number; maxCostUsd: number };
    expect(terminal.maxCostUsd).toBe(cap);
    expect(terminal.costUsd).toBeCloseTo(3 * perCall, 10);
    expect(terminal.costUsd + worst).toBeGreaterThan(cap);
    expect(unpairedToolUses(result.emitted.filter((m): m is Message => m.type === 'user' || m.type === 'assistant'))).toEqual([]);
    expect(result.emitted.some((m) => m.type === 'system' && m.subtype === 'cap_reached')).toBe(true);
  });

  it('lets a run that stays under the cap finish as the original would', async () => {
    const result = await simulateScenario(scenarioWithCap(100, 2));
    expect(result.terminal.reason).toBe('completed');
    expect(result.modelCalls).toBe(3);
  });

  it('bounds the main loop spend by the cap', () => {
    const config = resolveConfig({ limits: { maxCostUsd: 2 } });
    const uncapped = computeBounds(resolveConfig({}), { maxTurns: 3 });
    const capped = computeBounds(config, { maxTurns: 3 });
    expect(uncapped.mainCostUsd).toBeGreaterThan(2);
    expect(capped.mainCostUsd).toBe(2);
    expect(capped.because.join('\n')).toContain('limits.maxCostUsd');
  });

  it('turnloop run --max-budget-usd sets the cap: below one worst call, no request is sent', async () => {
    const project = mkdtempSync(join(tmpdir(), 'turnloop-budget-'));
    const api = await startFakeAnthropicApi({ model: [{ content: [{ type: 'text', text: 'never requested' }] }] });
    try {
      const env = { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: api.baseURL };
      const result = await runCli(['run', 'look around', '--yes', '--no-record', '--max-budget-usd', '0.5'], { env, cwd: project });
      expect(result.stdout).toContain('max_budget_usd');
      expect(api.requests).toHaveLength(0);
    } finally {
      await api.close();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it.each(['0', '-1', 'lots', ''])('turnloop run --max-budget-usd %j is bad input (exit 2)', async (value) => {
    const result = await runCli(['run', 'look around', `--max-budget-usd=${value}`], { env: { ANTHROPIC_API_KEY: 'test-key' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--max-budget-usd expects a positive number');
  });
});
