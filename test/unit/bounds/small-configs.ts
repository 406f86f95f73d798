/** The small configs the explorer tests (and docs/bounds.md) use: every transition reachable, explored completely. */
import { resolveConfig, type ConfigOverrides } from '../../../src/config/config.ts';
import type { LoopParams } from '../../../src/reducer/state.ts';

/** Collapse and the output cap on, autocompact off (so the blocking check runs): all 17 transitions are reachable. */
export const SMALL_OVERRIDES: ConfigOverrides = {
  features: { autoCompact: false, contextCollapse: true, maxOutputTokensCap: true },
  limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 1, autocompactMaxFailures: 2, maxModelCalls: 3 },
};
export const SMALL_CONFIG = resolveConfig(SMALL_OVERRIDES);

/** The default features (autocompact and reactive compact on) with small caps: the circuit breaker is exercised. */
export const AUTOCOMPACT_OVERRIDES: ConfigOverrides = {
  limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 2, autocompactMaxFailures: 2, maxModelCalls: 4 },
};
export const AUTOCOMPACT_CONFIG = resolveConfig(AUTOCOMPACT_OVERRIDES);

export const USER_PROMPT: LoopParams['messages'] = [{ type: 'user', uuid: 'u0', message: { role: 'user', content: 'Work on the task.' } }];

export const SMALL_PARAMS: LoopParams = { messages: USER_PROMPT, maxTurns: 2, tokenBudget: 1_500, fallbackModel: 'claude-haiku-4-5' };
export const AUTOCOMPACT_PARAMS: LoopParams = { messages: USER_PROMPT, maxTurns: 3 };
