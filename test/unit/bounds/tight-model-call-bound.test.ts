/**
 * The tight model-call bound of docs/testing.md (§9.10, `tightModelCallBound`) against the shrunk counterexample of
 * `test/property/run-invariants.test.ts` with seed 1824218645: the max-output cap on, a caller's
 * `maxOutputTokensOverride`, `maxTurns: 1` and a model that always truncates. The override seeds the first iteration
 * only (docs/loop.md §2), so after the first recovery the run alternates recover and escalate; the bound used to count
 * no escalation at all whenever the param was set.
 */
import { describe, expect, test } from 'vitest';
import { resolveConfig, type LoopConfig } from '../../../src/config/config.ts';
import type { LoopParams } from '../../../src/data/state.ts';
import type { Environment } from '../../property/arbitraries/environment.ts';
import { continueReasons, tightModelCallBound } from '../../property/checks.ts';
import { runEnvironment } from '../../property/fake-interpreter.ts';

const NO_FEATURES = {
  stripThinkingOnFallback: false,
  autoCompact: false,
  reactiveCompact: false,
  contextCollapse: false,
  historySnip: false,
  microcompact: false,
  toolResultBudget: false,
  tokenBudget: false,
  maxOutputTokensCap: false,
  streamingToolExecution: false,
  toolUseSummaries: false,
};

function config(maxModelCalls: number): LoopConfig {
  return resolveConfig({
    sessionId: 'prop',
    model: 'claude-sonnet-4-5',
    features: { ...NO_FEATURES, maxOutputTokensCap: true },
    limits: { maxOutputTokensRecovery: 3, autocompactMaxFailures: 3, maxStopHookBlocking: 0, maxModelCalls },
  });
}

function params(override: number | undefined): LoopParams {
  return {
    messages: [{ type: 'user', uuid: 'u0', message: { role: 'user', content: 'hello' } }],
    systemPrompt: ['You are a test.'],
    tools: ['Read', 'Bash', 'Grep'],
    runId: 'run',
    startedAt: 0,
    querySource: 'repl_main_thread',
    maxTurns: 1,
    taskBudget: { total: 1 },
    ...(override === undefined ? {} : { maxOutputTokensOverride: override }),
  };
}

/** The shrunk environment: every reply is an empty truncation reporting 160,000 input tokens. */
function environment(maxModelCalls: number, override: number | undefined): Environment {
  return {
    config: config(maxModelCalls),
    params: params(override),
    model: [{ kind: 'reply', reply: { blocks: [], ending: 'max_output_tokens', usage: { input_tokens: 160_000, output_tokens: 0 } } }],
    tools: [{ kind: 'ok', duplicate: false }],
    toolOrder: [0],
    stopHooks: ['allow'],
    autocompact: [false],
    reactiveCompact: [false],
    collapseDrain: [0],
    layerFreed: [1],
    attachments: [false],
    abort: null,
  };
}

describe('tight model-call bound (docs/testing.md §9.10) with a caller max-output override', () => {
  test('seed 1824218645: five calls under maxModelCalls 5 stay within the tight bound', () => {
    const env = environment(5, 16_000);
    const run = runEnvironment(env);
    expect(continueReasons(run)).toEqual([
      'max_output_tokens_recovery',
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
    ]);
    expect(run.modelRequests).toHaveLength(5);
    expect(run.terminal).toMatchObject({ reason: 'max_turns', cap: 'maxModelCalls' });
    expect(run.modelRequests.length).toBeLessThanOrEqual(tightModelCallBound(env.config, env.params) as number);
  });

  test('uncapped, the run reaches the bound exactly: 3 recoveries + 3 escalations + 1 with the param, one more escalation without', () => {
    const withParam = environment(1_000, 16_000);
    const seeded = runEnvironment(withParam);
    // The caller's override forbids only the first escalation; each later one follows a recovery that cleared it.
    expect(continueReasons(seeded)).toEqual([
      'max_output_tokens_recovery',
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
      'max_output_tokens_escalate',
      'max_output_tokens_recovery',
      'max_output_tokens_escalate',
    ]);
    expect(seeded.modelRequests).toHaveLength(7);
    expect(tightModelCallBound(withParam.config, withParam.params)).toBe(7);

    const withoutParam = environment(1_000, undefined);
    const unseeded = runEnvironment(withoutParam);
    expect(continueReasons(unseeded)[0]).toBe('max_output_tokens_escalate');
    expect(unseeded.modelRequests).toHaveLength(8);
    expect(tightModelCallBound(withoutParam.config, withoutParam.params)).toBe(8);
  });
});
