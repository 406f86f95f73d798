/**
 * `turnloop/internal`: the engine's parts, for tools built on turnloop itself (the docs generator, the benchmarks,
 * a debugger attached to the chart). EXPLICITLY UNSTABLE: anything here may change or go in any release, semver
 * does not cover it. Embedders use the root (`turnloop`) instead.
 */
export { createStepper, type Stepper, type StepperOptions } from '../reducer/stepper.ts';
export { loopMachine, MACHINE_ID } from '../machine/loop-machine.ts';
export { EFFECT_TYPES } from '../data/effects.ts';
export { estimateTokens, estimateMessageTokens, tokenCountWithEstimation, usageTokens } from '../rules/tokens.ts';
export { contextThresholds, defaultMaxOutputTokens, type ContextThresholds } from '../rules/thresholds.ts';
export { partitionToolCalls } from '../rules/tool-batching.ts';
export { decideTokenBudget } from '../rules/token-budget.ts';
export { modelInfo } from '../config/config.ts';
export { MISSING_CREDENTIALS_MESSAGE } from '../model/anthropic-model-caller.ts';
export { toolDefinitionForModel, createToolRegistry } from '../tools/index.ts';
export { runLoop, runLoopToEnd } from '../drivers/run-loop.ts';
export { resolveRunConfig, modelCallsPerTurn } from '../drivers/resolve-run.ts';
export { LOOP_PARAM_KEYS, type InternalLoopOptions, type RunLoopOptions } from '../runtime/query-options.ts';
export { QUERY_OPTION_KEYS } from '../api/query-option-keys.ts';
