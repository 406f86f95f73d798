/**
 * The witness of the model-call bound: a run that reaches the bound exactly, first through the reducer, then as a
 * scenario through `simulateScenario` (real adapter, real SDK, loopback fake API).
 */
import { describe, expect, it } from 'vitest';
import { computeBounds } from '../../../src/bounds/compute-bounds.ts';
import { boundsWitness } from '../../../src/bounds/witness.ts';
import { resolveConfig, type ConfigOverrides } from '../../../src/config/config.ts';
import { resolveRunConfig } from '../../../src/drivers/resolve-run.ts';
import type { LoopParams } from '../../../src/data/state.ts';
import { parseScenario } from '../../../src/scenario/load-scenario.ts';
import { simulateScenario } from '../../../src/scenario/simulate.ts';
import { USER_PROMPT } from './small-configs.ts';

const CASES: Array<{ name: string; overrides: ConfigOverrides; params: LoopParams }> = [
  { name: 'default features, small caps', overrides: { limits: { maxStopHookBlocking: 2, maxOutputTokensRecovery: 2 } }, params: { messages: USER_PROMPT, maxTurns: 2 } },
  { name: 'output cap on, a fallback model', overrides: { features: { maxOutputTokensCap: true }, limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 1 } }, params: { messages: USER_PROMPT, maxTurns: 2, fallbackModel: 'claude-haiku-4-5' } },
  { name: 'context collapse on', overrides: { features: { contextCollapse: true }, limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 1 } }, params: { messages: USER_PROMPT, maxTurns: 2 } },
  { name: 'no maxTurns: the model-call cap binds', overrides: { limits: { maxModelCalls: 7 } }, params: { messages: USER_PROMPT } },
];

describe('bounds witness', () => {
  for (const { name, overrides, params } of CASES) {
    it(`reaches the model-call bound exactly through the reducer (${name})`, () => {
      const config = resolveRunConfig(overrides, params.maxTurns);
      const witness = boundsWitness(config, overrides, params);
      expect(Number.isFinite(witness.bound)).toBe(true);
      expect(witness.modelCalls).toBe(witness.bound);
      expect(witness.bound).toBe(computeBounds(config, params).mainModelCalls);
    });
  }

  it.each(CASES.map((c) => [c.name, c] as const))('the witness scenario, simulated, makes exactly the bound of model calls (%s)', async (_name, { overrides, params }) => {
    const config = resolveRunConfig(overrides, params.maxTurns);
    const witness = boundsWitness(config, overrides, params);
    const scenario = parseScenario(JSON.parse(JSON.stringify(witness.scenario)), 'witness.json');
    const result = await simulateScenario(scenario);
    expect(result.modelCalls).toBe(witness.bound);
    expect(result.terminal.reason).toBe(witness.scenario.expect?.terminal);
    expect(result.transitions).toEqual(witness.scenario.expect?.transitions);
    expect(result.scriptExhausted).toBe(false);
  });

  it('a bound below the witness is impossible: one cap more gives one segment more', () => {
    const base = computeBounds(resolveConfig({ limits: { maxStopHookBlocking: 1 } }), { maxTurns: 2 });
    const more = computeBounds(resolveConfig({ limits: { maxStopHookBlocking: 2 } }), { maxTurns: 2 });
    // One more stop-hook block: its own call plus one more recovery segment (3 recoveries).
    expect(more.mainModelCalls - base.mainModelCalls).toBe(1 + 3);
  });
});
