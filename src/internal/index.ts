/**
 * `turnloop/internal`: the engine's parts, for tools built on turnloop itself (the docs generator, the benchmarks,
 * a debugger attached to the chart). EXPLICITLY UNSTABLE: anything here may change or go in any release, semver
 * does not cover it. Embedders use the root (`turnloop`) instead.
 */
export { createStepper, type Stepper, type StepperOptions } from '../reducer/stepper.ts';
export { loopMachine, MACHINE_ID } from '../machine/loop-machine.ts';
export { EFFECT_TYPES } from '../reducer/effects.ts';
export { estimateTokens, estimateMessageTokens, tokenCountWithEstimation, usageTokens } from '../reducer/tokens.ts';
export { contextThresholds, defaultMaxOutputTokens, type ContextThresholds } from '../reducer/thresholds.ts';
export { partitionToolCalls } from '../reducer/tool-batching.ts';
export { decideTokenBudget } from '../reducer/token-budget.ts';
export { modelInfo } from '../config/config.ts';
export { MISSING_CREDENTIALS_MESSAGE } from '../effects/model/anthropic-model-caller.ts';
export { toolDefinitionForModel, createToolRegistry } from '../effects/tools/index.ts';
export { runLoop, runLoopToEnd } from '../effects/run-loop.ts';
export { resolveRunConfig, modelCallsPerTurn } from '../effects/resolve-run.ts';
export { LOOP_PARAM_KEYS, type InternalLoopOptions, type RunLoopOptions } from '../effects/query-options.ts';
export { QUERY_OPTION_KEYS } from '../api/query-option-keys.ts';
