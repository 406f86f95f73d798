/**
 * What the interpreter needs from tool execution. `src/tools` implements it over `defineTool` tools;
 * tests and simulations may supply their own.
 */
import type { ToolUseBlock } from '../messages/types.ts';
import type { ToolBatch } from './effects.ts';
import type { ToolDefinitionForModel, ToolResultEvent } from './deps.ts';

/** One streaming-execution session: the tools of one model attempt (docs/loop.md §7.4). */
export interface StreamingToolSession {
  enqueue(toolUse: ToolUseBlock, concurrencySafe: boolean): void;
  /** Results ready to be reported now, in order (may pass over still-running safe tools). */
  takeCompleted(): ToolResultEvent[];
  /** Called whenever a new result may be ready. */
  onReady(listener: () => void): void;
  /** The model finished: every remaining result, in order (cancelled tools included, one result each). */
  finish(): AsyncIterable<ToolResultEvent>;
  /**
   * Optional: what `finish()` yields, each result handed to `sink.put` and awaited before the next (a driver that
   * queues the results anyway uses it, without an async generator's promises per result).
   */
  finishInto?(sink: ToolResultSink): Promise<void>;
  /** Throw the session away (fallbacks): running tools are aborted; no more results. */
  discard(reason: string): void;
}

/** Where `StreamingToolSession.finishInto` puts each result; the promise settles when the driver has taken it. */
export interface ToolResultSink {
  /** Takes one result; `finishInto` looks for the next only once this settles. */
  put(event: ToolResultEvent): Promise<void>;
}

export interface ToolRuntime {
  /** Definitions sent to the model. */
  definitions(): ToolDefinitionForModel[];
  /** Which tool_uses may run concurrently (false for unknown tools or invalid input). */
  concurrencySafe(toolUses: readonly ToolUseBlock[]): Record<string, boolean>;
  /** Whether running this call twice does its work once (`defineTool`'s `idempotent`); absent = never. */
  isIdempotent?(toolUse: ToolUseBlock): boolean;
  /** Non-streaming execution of batches (docs/loop.md §7.3); every tool_use gets exactly one result. */
  runBatches(batches: ToolBatch[], signal: AbortSignal): AsyncIterable<ToolResultEvent>;
  startStreaming(signal: AbortSignal): StreamingToolSession;
}
