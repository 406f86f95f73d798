/**
 * The root exports what an embedder uses and nothing of the engine's internals; those are behind the explicitly
 * unstable `turnloop/internal`, and the test doubles behind `turnloop/testing`.
 */
import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.ts';
import * as internal from '../../src/internal/index.ts';
import * as testing from '../../src/testing/index.ts';

const INTERNALS = [
  'createStepper', 'loopMachine', 'MACHINE_ID', 'EFFECT_TYPES', 'partitionToolCalls', 'decideTokenBudget', 'estimateTokens',
  'estimateMessageTokens', 'tokenCountWithEstimation', 'usageTokens', 'contextThresholds', 'defaultMaxOutputTokens', 'modelInfo',
  'MISSING_CREDENTIALS_MESSAGE', 'toolDefinitionForModel', 'createToolRegistry', 'runLoop', 'runLoopToEnd', 'resolveRunConfig',
  'resolveQueryConfig',
];

describe('the public API', () => {
  it('the root exports exactly what an embedder uses', () => {
    expect(Object.keys(root).sort()).toEqual([
      'CONTINUE_REASONS', 'ConfigError', 'DEFAULT_CONFIG', 'DEFAULT_MODEL', 'InvalidBaseUrlError', 'TERMINAL_REASONS', 'TurnloopError', 'UnknownQueryOptionError',
      'createAnthropicModelCaller', 'createToolRuntime', 'defineTool', 'initialState', 'isTurnloopError', 'query',
      'randomIds', 'resolveConfig', 'runQuery', 'step', 'systemClock',
    ]);
  });

  it('no internal is exported from the root; each is in turnloop/internal', () => {
    for (const name of INTERNALS) expect(root, name).not.toHaveProperty(name);
    for (const name of INTERNALS.filter((n) => n !== 'resolveQueryConfig')) expect(internal, name).toHaveProperty(name);
  });

  it('the test doubles are in turnloop/testing, not the root', () => {
    for (const name of ['startFakeAnthropicApi', 'scriptedModelCaller', 'scriptedToolRuntime', 'messageBuilders', 'virtualClock', 'counterIds']) {
      expect(testing).toHaveProperty(name);
      expect(root).not.toHaveProperty(name);
    }
  });
});
