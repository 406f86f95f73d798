/** The pure core: `step()`, `initialState()` and the data they speak. */
export { initialState, step, type IgnoredEvent, type StepResult } from './step.ts';
export { UnknownEventError } from './unknown-event-error.ts';
export { createStepper, type ChartPaths, type Stepper, type StepperOptions } from './stepper.ts';
export { EFFECT_TYPES } from './effects.ts';
export type { Effect, EffectOf, EffectType, ModelRequest, ToolBatch, ContextLayer } from './effects.ts';
export type { LoopEvent, EventOf, LoopEventType, MessageEdit, AbortReason } from './events.ts';
export type { LoopState, LoopContext, LoopParams, IterationState, ThinkingParam } from './state.ts';
export { TERMINAL_REASONS, CONTINUE_REASONS } from './outcomes.ts';
export type { Terminal, TerminalReason, Continue, ContinueReason, CapName } from './outcomes.ts';
export { estimateTokens, estimateMessageTokens, tokenCountWithEstimation, usageTokens } from './tokens.ts';
export { contextThresholds, defaultMaxOutputTokens, type ContextThresholds } from './thresholds.ts';
export { partitionToolCalls } from './tool-batching.ts';
export { decideTokenBudget } from './token-budget.ts';
