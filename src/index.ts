/**
 * turnloop's public API.
 *
 * - The deterministic core: `initialState`, `step` and the data they exchange (state, effects, events).
 * - The interpreter: `query()` / `runQuery()` over real Anthropic model calls, tools and compaction.
 * - Tools: `defineTool`, the built-in file tools, and the tool runtime.
 * - Config: `resolveConfig`, `DEFAULT_CONFIG`, `contextThresholds`.
 */
export * from './reducer/index.ts';
export { DEFAULT_CONFIG, DEFAULT_MODEL, resolveConfig, modelInfo } from './config/config.ts';
export type { LoopConfig, ConfigOverrides, FeatureSwitches, Limits, ModelInfo, PromptCachingConfig, RetryPolicy } from './config/config.ts';
export type * from './messages/types.ts';
export { loopMachine, MACHINE_ID } from './machine/loop-machine.ts';
export { query, runQuery, type QueryOptions } from './api/query.ts';
export { resolveQueryConfig } from './effects/query.ts';
export type { QueryDeps, StepObserver, RunObserver, RunObserverFactory } from './effects/query-options.ts';
export type * from './effects/deps.ts';
export type { ToolRuntime, StreamingToolSession } from './effects/tool-runtime.ts';
export { systemClock, virtualClock, counterIds, randomIds } from './effects/system-clock.ts';
export { createAnthropicModelCaller } from './effects/model/index.ts';
export { defineTool, toolDefinitionForModel, createToolRuntime, createToolRegistry } from './effects/tools/index.ts';
export type { Tool, ToolSpec, ToolCallResult, ToolContext, CanUseTool } from './effects/tools/index.ts';
export { createFileTools } from './tools/index.ts';
export { startFakeAnthropicApi, parseFakeScript } from './fake-api/index.ts';
export type { FakeApi, FakeScript } from './fake-api/index.ts';
