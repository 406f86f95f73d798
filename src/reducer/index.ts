/** The pure core: `step()`, `initialState()` and the data they speak. */
export { initialState, step, type IgnoredEvent, type StepResult } from './step.ts';
export { UnknownEventError } from '../data/unknown-event-error.ts';
export { createStepper, type ChartPaths, type Stepper, type StepperOptions } from './stepper.ts';
export { EFFECT_TYPES } from '../data/effects.ts';
export type { Effect, EffectOf, EffectType, ModelRequest, ToolBatch, ContextLayer } from '../data/effects.ts';
export type { LoopEvent, EventOf, LoopEventType, MessageEdit, AbortReason } from '../data/events.ts';
export type { LoopState, LoopContext, LoopParams, IterationState, ThinkingParam, ThinkingDisplay } from '../data/state.ts';
export { TERMINAL_REASONS, CONTINUE_REASONS } from '../data/outcomes.ts';
export type { Terminal, TerminalReason, Continue, ContinueReason, CapName } from '../data/outcomes.ts';
export { estimateTokens, estimateMessageTokens, tokenCountWithEstimation, usageTokens } from '../rules/tokens.ts';
export { contextThresholds, defaultMaxOutputTokens, type ContextThresholds } from '../rules/thresholds.ts';
export { partitionToolCalls } from '../rules/tool-batching.ts';
export { decideTokenBudget } from '../rules/token-budget.ts';
