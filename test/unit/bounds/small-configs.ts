/** The small configs the explorer tests (and docs/bounds.md) use: every transition reachable, explored completely. */
import { resolveConfig, type ConfigOverrides } from '../../../src/config/config.ts';
import { worstCallCostUsd } from '../../../src/rules/call-cost.ts';
import type { LoopParams } from '../../../src/data/state.ts';

const SMALL_FEATURES: ConfigOverrides = { features: { autoCompact: false, contextCollapse: true, maxOutputTokensCap: true } };
const FALLBACK_MODEL = 'claude-haiku-4-5';
/** Room for the worst call and two cheap replies ($0.018 each): the spend cap stops some runs before their third call. */
const SMALL_SPEND_CAP = Math.ceil((worstCallCostUsd(resolveConfig(SMALL_FEATURES), { fallbackModel: FALLBACK_MODEL }) + 0.02) * 100) / 100;

/**
 * Collapse and the output cap on, autocompact off (so the blocking check runs), a spend cap: all 17 transitions of
 * the original loop and `max_budget_usd` are reachable.
 */
export const SMALL_OVERRIDES: ConfigOverrides = {
  ...SMALL_FEATURES,
  limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 1, autocompactMaxFailures: 2, maxModelCalls: 3, maxCostUsd: SMALL_SPEND_CAP },
};
export const SMALL_CONFIG = resolveConfig(SMALL_OVERRIDES);

/** The default features (autocompact and reactive compact on) with small caps: the circuit breaker is exercised. */
export const AUTOCOMPACT_OVERRIDES: ConfigOverrides = {
  limits: { maxStopHookBlocking: 1, maxOutputTokensRecovery: 2, autocompactMaxFailures: 2, maxModelCalls: 4 },
};
export const AUTOCOMPACT_CONFIG = resolveConfig(AUTOCOMPACT_OVERRIDES);

export const USER_PROMPT: LoopParams['messages'] = [{ type: 'user', uuid: 'u0', message: { role: 'user', content: 'Work on the task.' } }];

export const SMALL_PARAMS: LoopParams = { messages: USER_PROMPT, maxTurns: 2, tokenBudget: 1_500, fallbackModel: FALLBACK_MODEL };
export const AUTOCOMPACT_PARAMS: LoopParams = { messages: USER_PROMPT, maxTurns: 3 };
