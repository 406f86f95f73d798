/**
 * The tool runtime (docs/loop.md §7): definitions, registry, the per-call pipeline and the two executors.
 */
export * from './define-tool.ts';
export * from './registry.ts';
export * from './call-deps.ts';
export * from './cancellation.ts';
export { runToolUse, runToolUseWithStatus, type ToolUseOutcome, type ToolUseScope, type ToolUseStatus } from './run-tool-use.ts';
export { runToolBatches, DEFAULT_MAX_TOOL_CONCURRENCY, type RunToolBatchesOptions } from './run-batches.ts';
export { StreamingToolExecutor, DuplicateToolUseError, type StreamingToolExecutorOptions } from './streaming-executor.ts';
export { toolResultMessage, errorResultEvent } from './tool-result-message.ts';
export { createToolRuntime, type CreateToolRuntimeOptions, type DefaultToolRuntime } from './create-tool-runtime.ts';
