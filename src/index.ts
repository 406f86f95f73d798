/**
 * turnloop's public API.
 *
 * - The deterministic core: `initialState`, `step` and the data they exchange (state, effects, events).
 * - The interpreter: `query()` / `runQuery()` over real Anthropic model calls, tools and compaction.
 * - Tools: `defineTool` and the tool runtime.
 * - Config: `resolveConfig`, `DEFAULT_CONFIG`, `contextThresholds`.
 *
 * The rest lives behind subpaths so that importing the root stays light: `turnloop/replay`, `turnloop/viz`,
 * `turnloop/testing` (fake API, scripted model, message builders), `turnloop/tools` (the file tools),
 * `turnloop/scenario` and `turnloop/claude` (see docs/architecture.md, "Entry points").
 */
export * from './reducer/index.ts';
export { TurnloopError, isTurnloopError } from './errors/turnloop-error.ts';
export { DEFAULT_CONFIG, DEFAULT_MODEL, resolveConfig, modelInfo } from './config/config.ts';
export type { LoopConfig, ConfigOverrides, FeatureSwitches, Limits, ModelInfo, PromptCachingConfig, RetryPolicy } from './config/config.ts';
export type * from './messages/types.ts';
export { loopMachine, MACHINE_ID } from './machine/loop-machine.ts';
export { query, runQuery, type QueryOptions } from './api/query.ts';
export type { QueryDeps, StepObserver, RunObserver, RunObserverFactory } from './effects/query-options.ts';
export type * from './effects/deps.ts';
export type { ToolRuntime, StreamingToolSession } from './effects/tool-runtime.ts';
export { systemClock, virtualClock, counterIds, randomIds } from './effects/system-clock.ts';
export { createAnthropicModelCaller, MISSING_CREDENTIALS_MESSAGE, type AnthropicModelCallerOptions, type ModelRetryNotice } from './effects/model/anthropic-model-caller.ts';
export { defineTool, toolDefinitionForModel, createToolRuntime, createToolRegistry } from './effects/tools/index.ts';
export type { Tool, ToolSpec, ToolCallResult, ToolContext, CanUseTool } from './effects/tools/index.ts';
