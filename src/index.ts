/**
 * turnloop's public API: what an embedder uses, and what semver protects.
 *
 * - Running the loop: `query()` / `runQuery()` with their options, `defineTool`, the model caller and the system
 *   clock and ids (the virtual clock and counter ids of tests are in `turnloop/testing`).
 * - Config: `resolveConfig`, `DEFAULT_CONFIG` and the config types (overrides are checked when `query()` starts).
 * - The deterministic core: `initialState`, `step` and the data they exchange (state, effects, events), with the
 *   terminal and continue reasons.
 * - Errors: every error turnloop throws extends `TurnloopError` and carries a stable `code`.
 *
 * The rest lives behind subpaths so that importing the root stays light: `turnloop/testing` (fake API, scripted
 * model, message builders), `turnloop/tools` (the file tools), `turnloop/replay`, `turnloop/viz`, … and
 * `turnloop/internal`, which is explicitly unstable (see docs/architecture.md, "Entry points").
 */
export { query, runQuery, type QueryOptions } from './api/query.ts';
export { UnknownQueryOptionError } from './api/query-option-keys.ts';
export type { LoopOptions, QueryDeps, StepRecord, StepObserver, StepGate, RunObserver, RunObserverFactory, ObservedRun, RunErrorHandler, RunErrorContext, RunErrorSource } from './runtime/query-options.ts';
export type * from './data/deps.ts';
export type { ToolRuntime, StreamingToolSession, ToolResultSink } from './data/tool-runtime.ts';
export { systemClock, randomIds } from './runtime/system-clock.ts';
export { createAnthropicModelCaller, type AnthropicModelCallerOptions, type ModelRetryNotice } from './model/anthropic-model-caller.ts';
export { InvalidBaseUrlError } from './model/base-url.ts';
export { defineTool, createToolRuntime } from './tools/index.ts';
export type { Tool, ToolSpec, ToolCallResult, ToolContext, CanUseTool, CreateToolRuntimeOptions } from './tools/index.ts';

export { DEFAULT_CONFIG, DEFAULT_MODEL, resolveConfig } from './config/config.ts';
export type { LoopConfig, ConfigOverrides, FeatureSwitches, Limits, ModelInfo, PromptCachingConfig, RetryPolicy } from './config/config.ts';
export { ConfigError } from './config/config-error.ts';

export { initialState, step, type StepResult } from './reducer/step.ts';
export type { Effect, EffectOf, EffectType, ModelRequest, ToolBatch, ContextLayer } from './data/effects.ts';
export type { LoopEvent, EventOf, LoopEventType, MessageEdit, AbortReason } from './data/events.ts';
export type { LoopState, LoopContext, LoopParams, IterationState, ThinkingParam, ThinkingDisplay } from './data/state.ts';
export { TERMINAL_REASONS, CONTINUE_REASONS } from './data/outcomes.ts';
export type { Terminal, TerminalReason, Continue, ContinueReason, CapName } from './data/outcomes.ts';
export type * from './messages/types.ts';

export { TurnloopError, isTurnloopError, type TurnloopErrorCode } from './errors/turnloop-error.ts';
