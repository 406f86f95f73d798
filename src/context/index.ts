/**
 * The context-management layers (docs/loop.md §6) as pure decisions. Each layer returns a `ContextLayerOutcome`
 * (`{ edits, tokensFreed, emitted? }`) that the interpreter turns into a `context_layer_result` event; the I/O
 * shell (result store, runner, drainer) lives in `src/context`.
 */
export * from './safe-cuts.ts';
export * from './tool-result-budget.ts';
export * from './snip.ts';
export * from './microcompact.ts';
export * from './context-collapse.ts';
export * from './autocompact.ts';
export * from './media-strip.ts';
export * from './task-budget.ts';
